/* Test plugin for tests/packets.rs: exercises a5->eng->SendPacket's rules and ReceivePacket.
 * Probe returns 1 when SendPacket is NULL (no session); otherwise it stores ReceivePacket, sends
 * a packet whose first byte is not 17 (refused), an empty one (refused), one of 2000 bytes
 * (refused: more than a datagram) and a good one to client 7, and returns 2. Received returns how
 * many packets arrived and, in the hundreds, the last one's second byte. */
#include "a5dll.h"

A5DLL_DEFINE

static long received, last;

static void OnPacket(long from, void *data, long size)
{
    const unsigned char *b = (const unsigned char *)data;
    (void)from;
    received++;
    last = size > 1 && b[0] == 17 ? b[1] : -1;
}

DLLFUNC fixed Probe(long unused)
{
    static char big[2000];
    char bad[2] = { 5, 1 };
    char good[3] = { 17, 'o', 'k' };
    (void)unused;
    if (!a5->eng->SendPacket)
        return 1;
    a5->eng->ReceivePacket = OnPacket;
    a5->eng->SendPacket(0, bad, 2, 0);
    a5->eng->SendPacket(0, good, 0, 0);
    big[0] = 17;
    a5->eng->SendPacket(0, big, (long)sizeof big, 1);
    a5->eng->SendPacket(7, good, 3, 1);
    return 2;
}

DLLFUNC fixed Received(long unused)
{
    (void)unused;
    return (fixed)(received + 100 * last);
}
