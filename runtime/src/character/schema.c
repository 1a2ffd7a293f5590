/* Every tuning schema, gathered (gait/schema.h): each table is its module's. */
#include "gait/schema.h"

#include <string.h>

#include "gait/anim.h"
#include "gait/camera.h"
#include "gait/locomotion.h"
#include "gait/stamina.h"
#include "gait/traverse.h"

const gait_schema *const *gait_schema_list(int *count) {
    static const gait_schema *list[6];
    /* filled from the modules' getters (their tables are static to their files); the same
     * addresses every call, so filling again is harmless */
    list[0] = gait_locomotion_schema();
    list[1] = gait_stamina_schema();
    list[2] = gait_traverse_table_schema();
    list[3] = gait_traverse_action_schema();
    list[4] = gait_camera_schema();
    list[5] = gait_anim_schema();
    if (count) *count = (int)(sizeof list / sizeof list[0]);
    return list;
}

const gait_schema *gait_schema_named(const char *name) {
    int n;
    const gait_schema *const *list = gait_schema_list(&n);
    for (int i = 0; name && i < n; i++)
        if (strcmp(list[i]->name, name) == 0) return list[i];
    return NULL;
}
