/* Packets: user packets over the A5 network session (modex demo --serve / --connect with
 * --plugin packets.so --each-frame Packets). Every 30th frame it sends "hello N" to everybody
 * (a server: every client; a client: its server) through a5->eng->SendPacket, and every packet
 * that arrives is reported through a5dll_errormessage. Without a network session SendPacket is
 * NULL and the function does nothing. */
#include <stdio.h>
#include "a5dll.h"

A5DLL_DEFINE

static void OnPacket(long from, void *data, long size)
{
    const char *bytes = (const char *)data;
    char line[160];
    /* bytes[0] is the 17 every user packet starts with; the text follows. */
    snprintf(line, sizeof line, "received %ld bytes from %ld: %.*s", size, from,
             (int)(size > 1 ? size - 1 : 0), bytes + 1);
    a5dll_errormessage(line);
}

DLLFUNC fixed Packets(long unused)
{
    static long frames;
    (void)unused;
    if (!a5->eng->SendPacket)
        return 0;
    a5->eng->ReceivePacket = OnPacket;
    if (frames++ % 30 == 0) {
        char msg[64];
        int n;
        msg[0] = 17;
        n = snprintf(msg + 1, sizeof msg - 1, "hello %ld", frames / 30 + 1);
        a5->eng->SendPacket(0, msg, n + 1, 0);
    }
    return 0;
}
