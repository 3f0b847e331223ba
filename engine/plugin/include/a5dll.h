/*
 * a5dll.h - the modex plugin interface, after the Acknex A5 SDK's header of the same name.
 *
 * Self-contained: needs only <stdint.h>; usable from C and C++. A plugin is a shared library built
 * against this header alone:
 *
 *     cc -shared -fPIC -I engine/plugin/include plugin.c -o plugin.so
 *
 * and loaded with `modex demo --plugin plugin.so --each-frame NAME --each-entity NAME`.
 * docs/plugins.md describes every struct field and function and what differs from A5
 * (64-bit `long`, no Direct3D device, frame buffer formats).
 */
#ifndef A5DLL_H
#define A5DLL_H

#include <stdint.h>

/* Version of this interface. a5dll_attach returns the number the plugin was compiled with; the
 * engine refuses a plugin compiled against a newer interface than its own (the A5 rule). */
#define A5DLL_VERSION 100

#ifdef __cplusplus
#define A5DLL_EXTERN_C extern "C"
#else
#define A5DLL_EXTERN_C
#endif

#if defined(_WIN32)
#define A5DLL_EXPORT __declspec(dllexport)
#define A5DLL_HIDDEN
#elif defined(__GNUC__) || defined(__clang__)
#define A5DLL_EXPORT __attribute__((visibility("default")))
#define A5DLL_HIDDEN __attribute__((visibility("hidden")))
#else
#define A5DLL_EXPORT
#define A5DLL_HIDDEN
#endif

/* An exported plugin function: DLLFUNC fixed NAME(long arg). */
#define DLLFUNC A5DLL_EXTERN_C A5DLL_EXPORT

typedef uint8_t byte;

/* 22.10 fixed point, the number type of C-Script. */
typedef int32_t fixed;
#define INT2FIX(i) ((fixed)((i) * 1024))
#define FIX2INT(x) ((x) >> 10)
#define FIX2FLOAT(x) (((double)(x)) / 1024.0)
#define FLOAT2FIX(f) ((fixed)((f) * 1024.0))

/* A4_ENTITY.flags the engine draws by (the A5 flag names; the values are this header's, so
 * recompile against it). TRANSPARENT: mixed over what is behind at `alpha` percent opacity.
 * INVISIBLE: not drawn. wingdi.h's TRANSPARENT has the same value. */
#define A4_TRANSPARENT (1 << 0)
#define A4_INVISIBLE (1 << 1)
#ifndef TRANSPARENT
#define TRANSPARENT A4_TRANSPARENT
#endif
#ifndef INVISIBLE
#define INVISIBLE A4_INVISIBLE
#endif

/* Engine functions returned by a5dll_getwdlfunc, by argument count. They return `long` (64 bits on
 * Linux) rather than A5's 32-bit `fixed`, so ent_create can return an entity pointer. */
typedef long (*wdlfunc1)(long);
typedef long (*wdlfunc2)(long, long);
typedef long (*wdlfunc3)(long, long, long);
typedef long (*wdlfunc4)(long, long, long, long);

#ifdef __cplusplus
extern "C" {
#endif

/* Header of every engine object. */
typedef struct {
    int32_t index;     /* internal */
    int32_t next;      /* internal */
    const char *name;  /* object name, or the model file for entities; may be NULL */
} WDL_LINK;

/* An entity: the demo's terrain, props, units and the models spawned by ent_create. */
typedef struct {
    WDL_LINK link;
    int32_t modelkey;             /* internal */
    fixed x, y, z;                /* position in quants (world units) */
    fixed pan, tilt, roll;        /* euler angles in degrees */
    fixed scale_x, scale_y, scale_z; /* scale factors, INT2FIX(1) = 1.0 */
    int32_t flags;                /* entity property flags: TRANSPARENT, INVISIBLE (others kept) */
    fixed frame;                  /* animation frame; the fraction interpolates */
    fixed nextframe;              /* interpolation target frame + 1, 0 = the following frame */
    fixed skin;                   /* skin number */
    fixed ambient;                /* -100..+100 */
    fixed albedo;                 /* 0..100, light reflectivity */
    fixed alpha;                  /* 0..100, transparency (kept, not drawn) */
    fixed lightrange;             /* dynamic light range (kept, not drawn) */
    fixed red, green, blue;       /* dynamic light colour 0..255 (kept, not drawn) */
    int32_t emask;                /* event enable flags (kept) */
    int32_t eflags;               /* internal status flags (kept) */
    fixed min[3], max[3];         /* bounding box in quants, relative to the position */
    fixed trigger_range;
    fixed push;
    fixed shadow_range;
    fixed floor_range;
    int32_t client_id;            /* always 0: no network session */
    fixed skill[48];              /* free for the plugin; kept across frames */
} A4_ENTITY;

/* A view: `camera` is the demo's camera. */
typedef struct {
    WDL_LINK link;
    int32_t type;                 /* internal */
    fixed layer;                  /* read only */
    fixed pos_x, pos_y;           /* screen position in pixels (read only) */
    int32_t flags;
    fixed size_x, size_y;         /* screen size in pixels (read only) */
    fixed x, y, z;                /* eye position */
    fixed pan, tilt, roll;        /* camera angles in degrees (pan, tilt are read back) */
    fixed offset_x, offset_y;     /* eye offsets (kept) */
    fixed arc;                    /* field of view in degrees, for zooming (read back) */
    fixed aspect;                 /* width to height ratio (read only) */
    fixed ambient;                /* brightness (kept) */
    fixed fog;                    /* kept */
    fixed diameter;               /* kept */
    A4_ENTITY *genius;            /* always NULL */
} A4_VIEW;

/* The frame being drawn. `bytes` is valid only between Lock() (non-zero on success) and Unlock().
 * bpp 1: the 8-bit mode-X frame (palette indices, linear rows); bpp 2: 565 or 4444; bpp 4: 8888,
 * one uint32_t 0xAARRGGBB per pixel in native byte order. */
typedef struct {
    uint8_t *bytes;
    int32_t pitch;                /* bytes from one row to the next */
    int32_t width, height;
    int32_t bpp;                  /* bytes per pixel */
    int32_t (*Lock)(void);
    void (*Unlock)(void);
    void *pd3ddev;                /* always NULL: there is no Direct3D device */
} FRAME_INTERFACE;

typedef struct {
    long (*GetObj)(const char *name);   /* behind a5dll_getwdlobj */
    long (*GetFunc)(const char *name);  /* behind a5dll_getwdlfunc */
    A4_ENTITY **my, **you;              /* *my: the entity of the current --each-entity call */
    A4_ENTITY *(*EntNext)(A4_ENTITY *ent);  /* behind a5dll_entnext */
    void (*ErrorMessage)(const char *text); /* behind a5dll_errormessage */
} WDL_INTERFACE;

typedef struct {
    uint8_t *save_block;          /* always NULL */
    int32_t save_size;            /* always 0 */
    long (*Exec)(long n, long p1, long p2, long p3); /* always NULL */
    /* Send a user packet (data[0] must be 17) to client `to` (a server's 0: every client; a
     * client always sends to its server). NULL when the engine runs no network session. */
    void (*SendPacket)(long to, void *data, long size, long guaranteed);
    /* Set by the plugin: called with every user packet that arrives, data[0] == 17; `from` is
     * the client's id on a server, 0 (the server) on a client. */
    void (*ReceivePacket)(long from, void *data, long size);
} ENGINE_INTERFACE;

typedef struct {
    int32_t dll_version;          /* the engine's A5DLL_VERSION */
    WDL_INTERFACE *wdl;
    FRAME_INTERFACE *fb;
    ENGINE_INTERFACE *eng;
} A5_INTERFACE;

/* The interface pointer a5dll_attach stored; defined by A5DLL_DEFINE. */
extern A5DLL_HIDDEN A5_INTERFACE *a5;

/* Address of the engine object NAME (cast it: (A4_VIEW *), (fixed *)), or 0 with the error
 * "unknown object 'NAME'" on stderr. Objects: camera, time, total_ticks, sky_speed, my, you. */
static inline long a5dll_getwdlobj(const char *name)
{
    return (a5 && a5->wdl && a5->wdl->GetObj) ? a5->wdl->GetObj(name) : 0;
}

/* Address of the engine function NAME (cast it to wdlfunc1..4), or 0 with the error
 * "unknown function 'NAME'". Functions: vec_rotate, ent_create, ent_remove. */
static inline long a5dll_getwdlfunc(const char *name)
{
    return (a5 && a5->wdl && a5->wdl->GetFunc) ? a5->wdl->GetFunc(name) : 0;
}

/* The entity after ENT; NULL gives the first, the last gives NULL. */
static inline A4_ENTITY *a5dll_entnext(A4_ENTITY *ent)
{
    return (a5 && a5->wdl && a5->wdl->EntNext) ? a5->wdl->EntNext(ent) : (A4_ENTITY *)0;
}

/* Reports TEXT on stderr with the plugin's file name (A5 showed error #1527). */
static inline void a5dll_errormessage(const char *text)
{
    if (a5 && a5->wdl && a5->wdl->ErrorMessage)
        a5->wdl->ErrorMessage(text);
}

#ifdef __cplusplus
}
#endif

/* One line per plugin: defines the `a5` pointer and the attach function the engine calls first. */
#define A5DLL_DEFINE                                                                  \
    A5DLL_HIDDEN A5_INTERFACE *a5 = 0;                                                \
    DLLFUNC long a5dll_attach(A5_INTERFACE *interface_)                               \
    {                                                                                 \
        a5 = interface_;                                                              \
        return A5DLL_VERSION;                                                         \
    }

#endif /* A5DLL_H */
