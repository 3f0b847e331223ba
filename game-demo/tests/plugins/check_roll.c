/* Test plugin: FlipUpsideDown's effect seen from the plugin side. --each-entity Flip rolls every
 * entity; --each-frame Count walks the entities after drawing and reports how many there are and
 * how many kept their roll of 180, through the error path (one stderr line). */
#include "a5dll.h"

A5DLL_DEFINE

DLLFUNC fixed Flip(long entity)
{
    A4_ENTITY *my = *a5->wdl->my;
    if (!entity || (long)my != entity)
        a5dll_errormessage("Flip: MY is not the entity passed");
    if (entity)
        ((A4_ENTITY *)entity)->roll = INT2FIX(180);
    return 0;
}

static void put_number(char *p, int n)
{
    char digits[16];
    int k = 0;
    do {
        digits[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    while (k > 0)
        *p++ = digits[--k];
    *p = 0;
}

DLLFUNC fixed Count(long unused)
{
    (void)unused;
    int all = 0, rolled = 0;
    for (A4_ENTITY *e = a5dll_entnext(0); e; e = a5dll_entnext(e)) {
        all++;
        if (e->roll == INT2FIX(180))
            rolled++;
    }
    char line[64] = "entities ";
    put_number(line + 9, all);
    char *p = line;
    while (*p)
        p++;
    const char *mid = " rolled ";
    while (*mid)
        *p++ = *mid++;
    put_number(p, rolled);
    a5dll_errormessage(line);
    return INT2FIX(all);
}
