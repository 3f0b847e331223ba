/* Test plugin for the TRANSPARENT and INVISIBLE flags (--each-entity NAME): Ghost / Vanish act on
 * the terrain, GhostUnits / VanishUnits on every voxel unit (tank.vxl, apc.vxl, heli.vxl). Ghost*
 * sets TRANSPARENT with alpha 50, Vanish* sets INVISIBLE; other entities are left alone. */
#include <string.h>
#include "a5dll.h"

A5DLL_DEFINE

static int is_terrain(const char *name)
{
    return strcmp(name, "terrain.hmp") == 0;
}

static int is_unit(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && strcmp(name + len - 4, ".vxl") == 0;
}

/* Set `flags` (and alpha 50 for TRANSPARENT) on the entity when `pick` says it is one of ours. */
static fixed mark(long entity, int (*pick)(const char *), int32_t flags)
{
    A4_ENTITY *e = (A4_ENTITY *)entity;
    if (e && e->link.name && pick(e->link.name)) {
        e->flags |= flags;
        if (flags & TRANSPARENT)
            e->alpha = INT2FIX(50);
    }
    return 0;
}

DLLFUNC fixed Ghost(long entity) { return mark(entity, is_terrain, TRANSPARENT); }
DLLFUNC fixed Vanish(long entity) { return mark(entity, is_terrain, INVISIBLE); }
DLLFUNC fixed GhostUnits(long entity) { return mark(entity, is_unit, TRANSPARENT); }
DLLFUNC fixed VanishUnits(long entity) { return mark(entity, is_unit, INVISIBLE); }
