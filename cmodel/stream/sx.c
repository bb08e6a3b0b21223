#include "stream/sx.h"

#include <stdlib.h>

int sx_rel_push(sx_rel_list_t *l, uint32_t batch, uint32_t id, int eob)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        sx_rel_t *nv = realloc(l->v, nc * sizeof *nv);
        if (!nv) return -1;
        l->v = nv;
        l->cap = nc;
    }
    l->v[l->n].batch = batch;
    l->v[l->n].id = eob ? 0 : id;
    l->v[l->n].eob = eob ? 1 : 0;
    l->n++;
    return 0;
}

void sx_rel_free(sx_rel_list_t *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

int sx_run_one(const sx_input_t *in, uint32_t r, sx_rel_list_t *out)
{
    if (in->n_gpus == 0 || in->n_gpus > 64 || r >= in->n_gpus) return -1;
    uint64_t bit = 1ull << r;
    for (uint32_t b = 0; b < in->n_batches; b++) {
        for (uint32_t s = 0; s < in->n_gpus; s++) {
            size_t k = (size_t)b * in->n_gpus + s;
            const sx_entry_t *c = in->chunks[k];
            for (uint32_t i = 0; i < in->counts[k]; i++)
                if (c[i].mask & bit)
                    if (sx_rel_push(out, b, c[i].id, 0)) return -1;
        }
        if (sx_rel_push(out, b, 0, 1)) return -1;
    }
    return 0;
}

int sx_run(const sx_input_t *in, sx_rel_list_t *out)
{
    if (in->n_gpus == 0 || in->n_gpus > 64) return -1;
    for (uint32_t r = 0; r < in->n_gpus; r++)
        if (sx_run_one(in, r, &out[r])) return -1;
    return 0;
}
