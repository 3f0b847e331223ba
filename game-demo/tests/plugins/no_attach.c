/* Test plugin: exports a function but no a5dll_attach; the engine must refuse it by name. */
#include "a5dll.h"

DLLFUNC fixed Foo(long x)
{
    return (fixed)x;
}
