/* PaintScreenWhite: lock the frame, fill it, unlock (the A5 SDK's first frame-buffer example).
 * Build: cc -shared -fPIC -I engine/plugin/include paint_screen_white.c -o paint_screen_white.so
 * Run:   modex demo --headless --frames 3 --out /tmp/x --plugin ./paint_screen_white.so \
 *            --each-frame PaintScreenWhite */
#include "a5dll.h"

A5DLL_DEFINE

DLLFUNC fixed PaintScreenWhite(long unused)
{
    FRAME_INTERFACE *fb = a5->fb;
    (void)unused;
    if (!fb->Lock())
        return 0;
    /* note the pitch: a row may be longer than width * bpp */
    for (int j = 0; j < fb->height; j++) {
        byte *row = fb->bytes + j * fb->pitch;
        for (int i = 0; i < fb->width * fb->bpp; i++)
            row[i] = 255;
    }
    fb->Unlock();
    return 0;
}
