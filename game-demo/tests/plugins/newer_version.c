/* Test plugin: built for a newer interface than the engine's; the engine must refuse it. */
#include "a5dll.h"

A5_INTERFACE *a5;

DLLFUNC long a5dll_attach(A5_INTERFACE *interface_)
{
    a5 = interface_;
    return A5DLL_VERSION + 1;
}
