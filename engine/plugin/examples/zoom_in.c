/* ZoomIn: narrow the camera's field of view a little on every call (--each-frame ZoomIn). */
#include "a5dll.h"

A5DLL_DEFINE

DLLFUNC fixed ZoomIn(long unused)
{
    (void)unused;
    A4_VIEW *camera = (A4_VIEW *)a5dll_getwdlobj("camera");
    if (!camera)
        return 0;
    if (camera->arc - INT2FIX(4) >= INT2FIX(10))
        camera->arc -= INT2FIX(4);
    return camera->arc;
}
