/* Test plugin: --each-entity Ghost draws the terrain TRANSPARENT at alpha 50; --each-entity
 * Vanish makes it INVISIBLE. Other entities are left alone. */
#include <string.h>
#include "a5dll.h"

A5DLL_DEFINE

static int is_terrain(const A4_ENTITY *e)
{
    return e && e->link.name && strcmp(e->link.name, "terrain.hmp") == 0;
}

DLLFUNC fixed Ghost(long entity)
{
    A4_ENTITY *e = (A4_ENTITY *)entity;
    if (is_terrain(e)) {
        e->flags |= TRANSPARENT;
        e->alpha = INT2FIX(50);
    }
    return 0;
}

DLLFUNC fixed Vanish(long entity)
{
    A4_ENTITY *e = (A4_ENTITY *)entity;
    if (is_terrain(e))
        e->flags |= INVISIBLE;
    return 0;
}
