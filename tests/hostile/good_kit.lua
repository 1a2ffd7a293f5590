-- Not an attack: the well-behaved kit the hostile corpus's drivers give another character, to
-- see that the other kits go on running beside a hostile one. It names an action every frame.
return {
  on_presses = function(ch)
    ch:start_action(0.5, "good")
  end,
}
