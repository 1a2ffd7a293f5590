// The tuning panel (F2): Dear ImGui (Debian's libimgui-dev, its GLFW and OpenGL3 backends) in
// the sandbox host only; the runtime stays C. A C face (sandbox.h, sb_panel_*) so the rest of
// the sandbox never sees C++.
//
// What it shows, for the body being played: every tuning number in force with its unit, the
// schema's range and where it comes from (file:line, block, measured or provisional), each
// draggable live; a write button per number (and one for all edited) that puts the value in
// its file keeping the layout and comments; the state colours; stamina, speed and height over
// the last seconds; the traversal scan's verdict; the kit and its last error.
extern "C" {
#include "sandbox.h"
}

#ifdef GAIT_SANDBOX_PANEL
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <cstdio>
#include <cstring>

static bool ready, shown;

extern "C" bool sb_panel_create(GLFWwindow *window) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO &io = ImGui::GetIO();
    io.IniFilename = nullptr;       // no imgui.ini left in the working directory
    ImGui::StyleColorsDark();
    ImGui::GetStyle().Alpha = 0.94f;
    // true: the backend installs its GLFW callbacks and chains the sandbox's (set before).
    if (!ImGui_ImplGlfw_InitForOpenGL(window, true) || !ImGui_ImplOpenGL3_Init("#version 330 core")) {
        ImGui::DestroyContext();
        return false;
    }
    ready = true;
    return true;
}

extern "C" void sb_panel_destroy(void) {
    if (!ready) return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    ready = false;
}

extern "C" bool sb_panel_wants_mouse(void) { return ready && shown && ImGui::GetIO().WantCaptureMouse; }
extern "C" bool sb_panel_wants_keyboard(void) { return ready && shown && ImGui::GetIO().WantCaptureKeyboard; }

static const char *base_name(const char *path) {
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void numbers_table(const sb_panel_view *v, sb_panel_edit *out) {
    const char *groups[3] = {"locomotion", "gates", "stamina"};
    const char *titles[3] = {"locomotion.lua: the body's numbers", "gates.lua: gate thresholds",
                             "stamina.lua: costs"};
    for (int g = 0; g < 3; g++) {
        if (!ImGui::CollapsingHeader(titles[g], g == 0 ? ImGuiTreeNodeFlags_DefaultOpen : 0)) continue;
        ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit;
        if (!ImGui::BeginTable(groups[g], 5, tf)) continue;
        ImGui::TableSetupColumn("number");
        ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, 130);
        ImGui::TableSetupColumn("unit / range");
        ImGui::TableSetupColumn("from");
        ImGui::TableSetupColumn("");
        ImGui::TableHeadersRow();
        for (int i = 0; i < v->row_count; i++) {
            const sb_tuning_row *r = &v->rows[i];
            if (strcmp(r->group, groups[g]) != 0) continue;
            ImGui::PushID(i);
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            bool edited = v->edited && v->edited[i];
            if (edited) ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1), "%s *", r->key);
            else ImGui::TextUnformatted(r->key);
            ImGui::TableNextColumn();
            double value = r->value, lo = r->min, hi = r->max;
            ImGui::SetNextItemWidth(-1);
            float speed = (float)((hi - lo) / 2000.0);
            if (ImGui::DragScalar("##v", ImGuiDataType_Double, &value, speed, &lo, &hi, "%.4g",
                                  ImGuiSliderFlags_AlwaysClamp) && value != r->value) {
                out->row = i;
                out->value = value;
            }
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s  [%g, %g]", r->unit, r->min, r->max);
            ImGui::TableNextColumn();
            const char *kind = r->measured ? "measured" : r->block[0] == '\0' || !strcmp(r->block, "costs")
                                                            ? "shared" : "provisional";
            if (r->line > 0)
                ImGui::Text("%s:%d %s%s(%s)", base_name(r->file), r->line, r->block,
                            r->block[0] ? " " : "", kind);
            else
                ImGui::TextDisabled("built-in default (%s sets none)", base_name(r->file));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r->file);
            ImGui::TableNextColumn();
            if (ImGui::SmallButton("write")) {
                out->write_row = i;
                out->value = r->value;
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("put %g into %s%s%s", r->value, base_name(r->file),
                                  r->block[0] ? ", block " : "", r->block);
            ImGui::PopID();
        }
        ImGui::EndTable();
    }
}

extern "C" void sb_panel_draw(const sb_panel_view *v, sb_panel_edit *out) {
    out->row = -1;
    out->write_row = -1;
    out->write_all = false;
    out->value = 0;
    shown = v->open;
    if (!ready || !v->open) return;     /* closed: no ImGui work at all in the frame */
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    {
        ImGuiIO &io = ImGui::GetIO();
        float w = io.DisplaySize.x * 0.46f;
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - w - 8, 130), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(w, io.DisplaySize.y - 140), ImGuiCond_FirstUseEver);
        ImGui::Begin("tuning (F2)");
        ImGui::Text("body %s (%s)", v->body, v->measured ? "measured: its own entry" : "provisional numbers");
        ImGui::SameLine();
        if (ImGui::SmallButton("write all edited")) out->write_all = true;
        if (v->status && v->status[0]) ImGui::TextWrapped("%s", v->status);

        if (ImGui::CollapsingHeader("state colours", ImGuiTreeNodeFlags_DefaultOpen)) {
            for (int s = 0; s < v->state_count; s++) {
                ImVec4 c(v->state_rgb[s][0], v->state_rgb[s][1], v->state_rgb[s][2], 1);
                ImGui::ColorButton(v->state_names[s], c, ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
                ImGui::SameLine();
                if (s == v->state) ImGui::TextColored(ImVec4(1, 1, 0.4f, 1), "[%s]", v->state_names[s]);
                else ImGui::TextUnformatted(v->state_names[s]);
                if ((s + 1) % 6 != 0 && s + 1 < v->state_count) ImGui::SameLine(0, 14);
            }
        }
        if (ImGui::CollapsingHeader("the last seconds", ImGuiTreeNodeFlags_DefaultOpen)) {
            char label[64];
            float pw = ImGui::GetContentRegionAvail().x;
            snprintf(label, sizeof label, "stamina %.0f", v->samples ? v->stamina[(v->head + v->samples - 1) % v->samples] : 0.0f);
            ImGui::PlotLines("##stamina", v->stamina, v->samples, v->head, label, 0, v->stamina_max, ImVec2(pw, 50));
            snprintf(label, sizeof label, "speed %.2f m/s", v->samples ? v->speed[(v->head + v->samples - 1) % v->samples] : 0.0f);
            ImGui::PlotLines("##speed", v->speed, v->samples, v->head, label, 0, 15, ImVec2(pw, 50));
            snprintf(label, sizeof label, "height %.2f m", v->samples ? v->height[(v->head + v->samples - 1) % v->samples] : 0.0f);
            ImGui::PlotLines("##height", v->height, v->samples, v->head, label, FLT_MAX, FLT_MAX, ImVec2(pw, 50));
            ImGui::TextDisabled("%.0f s, one sample a frame", v->plot_seconds);
        }
        if (ImGui::CollapsingHeader("traversal and kit", ImGuiTreeNodeFlags_DefaultOpen)) {
            ImGui::Text("scan: %s", v->verdict);
            ImGui::Text("kit: %s", v->kit[0] ? v->kit : "(none)");
            if (v->kit_error[0]) ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "last error: %s", v->kit_error);
            else ImGui::TextDisabled("last error: none");
        }
        numbers_table(v, out);
        ImGui::End();
    }
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}
#endif
