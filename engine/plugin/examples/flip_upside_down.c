/* FlipUpsideDown: roll every entity by 180 degrees (use with --each-entity FlipUpsideDown). */
#include "a5dll.h"

A5DLL_DEFINE

DLLFUNC fixed FlipUpsideDown(long entity)
{
    if (!entity)
        return 0;
    A4_ENTITY *ent = (A4_ENTITY *)entity;
    ent->roll = FLOAT2FIX(180);
    return 0;
}
