/* AskUnknown: asking for an object that does not exist gives 0 and an error line, never a crash. */
#include "a5dll.h"

A5DLL_DEFINE

DLLFUNC fixed AskUnknown(long unused)
{
    (void)unused;
    if (a5dll_getwdlobj("no_such_object") == 0) {
        a5dll_errormessage("ok: unknown object gave 0");
        return INT2FIX(1);
    }
    a5dll_errormessage("FAILED: unknown object did not give 0");
    return 0;
}
