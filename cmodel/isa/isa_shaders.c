/* GPUpd ISA: the shader library (cmodel/shaders/NAME.s) embedded as text. */
#include <stdio.h>
#include <string.h>

#include "isa/isa.h"
#include "isa_shaders_src.h"

int isa_shader_count(void)
{
    return ISA_NUM_SHADERS;
}

const char *isa_shader_name(int i)
{
    return i >= 0 && i < ISA_NUM_SHADERS ? isa_shader_srcs[i].name : NULL;
}

const char *isa_shader_source(const char *name)
{
    for (int i = 0; i < ISA_NUM_SHADERS; i++)
        if (!strcmp(isa_shader_srcs[i].name, name))
            return isa_shader_srcs[i].text;
    return NULL;
}

int isa_shader_assemble(const char *name, uint64_t *out, uint32_t cap, isa_asm_err_t *err)
{
    const char *src = isa_shader_source(name);
    if (!src) {
        if (err) {
            err->line = err->col = 0;
            snprintf(err->msg, sizeof err->msg, "unknown shader '%s'", name);
        }
        return -1;
    }
    return isa_assemble(src, out, cap, err);
}
