/* Sparks: a particle-style effect (--each-frame Sparks). Every call ages the sparks made before,
 * moving them up and removing those whose life is over, and makes one new short-lived spark with
 * ent_create. skill[0] is the life left in frames, skill[1] marks a spark. */
#include "a5dll.h"

A5DLL_DEFINE

#define SPARK_MARK 0x5350
#define SPARK_LIFE 2

DLLFUNC fixed Sparks(long unused)
{
    (void)unused;
    wdlfunc3 ent_create = (wdlfunc3)a5dll_getwdlfunc("ent_create");
    wdlfunc1 ent_remove = (wdlfunc1)a5dll_getwdlfunc("ent_remove");
    fixed *total_ticks = (fixed *)a5dll_getwdlobj("total_ticks");
    if (!ent_create || !ent_remove || !total_ticks)
        return 0;

    A4_ENTITY *ent = a5dll_entnext(0);
    while (ent) {
        A4_ENTITY *next = a5dll_entnext(ent); /* the walk goes on past a removed entity */
        if (ent->skill[1] == SPARK_MARK) {
            ent->skill[0] -= 1;
            ent->z += INT2FIX(6);
            if (ent->skill[0] <= 0)
                ent_remove((long)ent);
        }
        ent = next;
    }

    fixed pos[3] = { (FIX2INT(*total_ticks) % 8 - 4) * INT2FIX(12), 0, INT2FIX(40) };
    A4_ENTITY *spark = (A4_ENTITY *)ent_create((long)"flag.mdl", (long)pos, 0);
    if (spark) {
        spark->skill[0] = SPARK_LIFE;
        spark->skill[1] = SPARK_MARK;
        spark->scale_x = spark->scale_y = spark->scale_z = INT2FIX(1) / 2;
    }
    return 0;
}
