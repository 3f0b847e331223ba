/* Test plugin: --each-entity GhostUnits draws every voxel unit (tank.vxl, apc.vxl, heli.vxl)
 * TRANSPARENT at alpha 50; --each-entity VanishUnits makes them INVISIBLE. */
#include <string.h>
#include "a5dll.h"

A5DLL_DEFINE

static int is_unit(const A4_ENTITY *e)
{
    const char *n = e ? e->link.name : 0;
    size_t len = n ? strlen(n) : 0;
    return len > 4 && strcmp(n + len - 4, ".vxl") == 0;
}

DLLFUNC fixed GhostUnits(long entity)
{
    A4_ENTITY *e = (A4_ENTITY *)entity;
    if (is_unit(e)) {
        e->flags |= TRANSPARENT;
        e->alpha = INT2FIX(50);
    }
    return 0;
}

DLLFUNC fixed VanishUnits(long entity)
{
    A4_ENTITY *e = (A4_ENTITY *)entity;
    if (is_unit(e))
        e->flags |= INVISIBLE;
    return 0;
}
