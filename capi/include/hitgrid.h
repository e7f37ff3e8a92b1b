/* hitgrid.h: the C API of hitgrid (C99; also compiles as C++).
 *
 * Every colliding pair among 2D segments, circles and axis-aligned boxes, exact, from any
 * language that can call C: a one-shot pair finder over plain float arrays, the engine
 * world (shapes with stable handles, filters, static and dynamic bodies, per step the
 * touching pairs and the begin / end events, queries, casts, continuous collision), and
 * the rope that wraps around pegs (hitgrid_rope, at the end of this header).
 * It wraps the C++ library (hitgrid/hitgrid.hpp) and gives the same answers: exact on the
 * float32 inputs, the same on every thread count and instruction set (docs/contracts.md).
 *
 *   hitgrid_world* world;
 *   hitgrid_world_new(NULL, &world);                        // NULL: default options
 *   hitgrid_shape_def ball = hitgrid_circle_def(0, 0, 1);   // dynamic, default filter
 *   hitgrid_shape_def wall = hitgrid_segment_def(-5, -1, 5, -1);
 *   wall.body = HITGRID_STATIC;
 *   hitgrid_handle b, w;
 *   hitgrid_world_create(world, &ball, &b);
 *   hitgrid_world_create(world, &wall, &w);
 *   hitgrid_world_step(world);
 *   const hitgrid_handle_pair* begins; size_t n;
 *   hitgrid_world_begin_events(world, &begins, &n);         // {b, w}: began touching
 *   hitgrid_world_free(world);
 *
 * Conventions
 *   - Shapes are closed: touching counts. A segment is ax ay bx by (a == b: a point), a
 *     circle cx cy r (r >= 0; r == 0: a point), a box minx miny maxx maxy (min <= max).
 *     Coordinates are float32, taken as exact; NaN and infinities are refused.
 *   - Shape handles are 64-bit integers, (slot << 32) | generation, ordered as the C++
 *     ShapeHandle; 0 is the null handle, which no shape ever has. A destroyed shape's
 *     handle is refused ever after.
 *   - In the one-shot finder a shape is named by an id: its kind in the top two bits and
 *     its index (per kind, from 0 in array order) in the low 30 (hitgrid_id_kind,
 *     hitgrid_id_index); a pair is one 64-bit word, the lower id in the high half
 *     (hitgrid_pair_first, hitgrid_pair_second), so that sorting words sorts pairs.
 *
 * Errors
 *   Every function except hitgrid_last_error, hitgrid_last_error_handle,
 *   hitgrid_status_name, hitgrid_version, the *_def constructors and the static inline
 *   helpers returns a hitgrid_status. On failure the thread-local last error
 *   (hitgrid_last_error) says what and where: "hitgrid_world_move: move: shape (slot 3,
 *   generation 1) is not a live shape"; an invalid shape is named by kind and number:
 *   in the one-shot finder its id ("box 3": the fourth box), in a world call its place in
 *   the call ("circle 2: r is NaN": the third shape given). A successful call leaves
 *   it as it was. No C++ exception leaves the library and no function aborts on bad input;
 *   a refused call leaves the world, finder or rope as it was (bulk calls check everything
 *   before they change anything).
 *
 * Memory
 *   - Objects (hitgrid_world, hitgrid_pair_finder, hitgrid_rope) are created by *_new and
 *     destroyed by *_free, which accept NULL.
 *   - Arrays returned through `const T**` are borrowed: they belong to the object that
 *     returned them and stay valid and unchanged until the event named in each function's
 *     comment (for a world's frame results: its next hitgrid_world_step or
 *     hitgrid_world_free; for query and cast results: the world's next query or cast; for
 *     a rope's nodes: its next move). An empty result may be a NULL pointer with count 0.
 *   - hitgrid_find_pairs returns an array the caller owns and gives back with
 *     hitgrid_free.
 *   - Every other array is the caller's, read or written only during the call.
 *   - The outputs of a call that fails are unspecified; borrowed arrays of earlier calls
 *     stay valid (a failed step, query or find_pairs does not replace them).
 *
 * Threads
 *   A world or finder is used from one thread at a time; different objects may be used
 *   from different threads at once. Each runs its parallel work on its own thread pool
 *   (options.threads, 0 = every hardware thread), or on the program's job system when
 *   options.tasks.run is set (hitgrid_task_hook: Box2D's enqueueTask/finishTask in one
 *   blocking call). run(user, count, min_range, task, context) must call
 *   task(context, begin, end) for ranges that cover [0, count) once each (at least
 *   min_range items, the last may be shorter), on any threads, in any order, and return
 *   when all have returned; tasks never block on each other and never call back into the
 *   hook. A hook that leaves items out makes the call fail (HITGRID_ERROR) instead of
 *   answering wrong; the one such failure after which the world is not as it was is in a
 *   move's writes (the world writes the rest itself, then fails: the batch is moved
 *   whole). The answers are the same as on the library's own threads.
 *
 * ABI
 *   Plain C types of fixed size only; the instruction set (SSE2, AVX2, AVX-512) is chosen
 *   at run time inside the library, so nothing here depends on it. Structs have no
 *   implicit padding; fields named `reserved` must be 0 (the *_init functions set them).
 */
#ifndef HITGRID_H
#define HITGRID_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header's API; hitgrid_version() returns the library's. */
#define HITGRID_C_API_VERSION 1

typedef enum hitgrid_status {
  HITGRID_OK = 0,
  HITGRID_ERROR = 1,            /* other bad input: invalid options, a world that is full,
                                   a call that does not fit the shape (displacement of a box) */
  HITGRID_INVALID_SHAPE = 2,    /* NaN or infinite coordinate, negative radius, inverted box */
  HITGRID_INVALID_HANDLE = 3,   /* a handle that names no live shape, or given twice */
  HITGRID_PARSE_ERROR = 4,      /* a malformed scene or pair file */
  HITGRID_IO_ERROR = 5,         /* a file that cannot be opened, read or written */
  HITGRID_OUT_OF_MEMORY = 6,    /* an allocation failed */
  HITGRID_INVALID_ARGUMENT = 7, /* a NULL pointer where one is needed, an unknown kind,
                                   body, ISA or method, a nonzero reserved field */
  HITGRID_INTERNAL_ERROR = 8    /* anything else: a bug in hitgrid */
} hitgrid_status;

/* Shape kinds, in the order of pair lists: segments < circles < boxes. */
enum { HITGRID_SEGMENT = 0, HITGRID_CIRCLE = 1, HITGRID_BOX = 2 };
/* Body types. Static shapes never pair with each other. */
enum { HITGRID_STATIC = 0, HITGRID_DYNAMIC = 1 };
/* Instruction sets; HITGRID_ISA_AUTO picks the best this CPU and OS support. */
enum { HITGRID_ISA_AUTO = 0, HITGRID_ISA_SCALAR = 1, HITGRID_ISA_SSE2 = 2, HITGRID_ISA_AVX2 = 3, HITGRID_ISA_AVX512 = 4 };
/* Broad phases of the one-shot finder (the answer is the same with each). */
enum { HITGRID_METHOD_AUTO = 0, HITGRID_METHOD_GRID = 1, HITGRID_METHOD_SWEEP_AND_PRUNE = 2, HITGRID_METHOD_BRUTE_FORCE = 3 };
/* Kinds of contact of a moving circle (hitgrid_impact). */
enum { HITGRID_TOI_NONE = 0, HITGRID_TOI_OVERLAPPING = 1, HITGRID_TOI_TOUCHING = 2, HITGRID_TOI_IMPACT = 3 };

typedef uint64_t hitgrid_handle;
/* A one-shot pair: (lower id << 32) | higher id. */
typedef uint64_t hitgrid_pair;

typedef struct hitgrid_world hitgrid_world;
typedef struct hitgrid_pair_finder hitgrid_pair_finder;

/* A shape of any kind: v holds ax ay bx by, cx cy r (v[3] ignored) or minx miny maxx maxy. */
typedef struct hitgrid_shape {
  uint32_t kind;
  float v[4];
} hitgrid_shape;

/* A segment cast {a, b} is a ray with a maximum distance: its end is a float, so "within
 * the distance" is decided exactly too. */
typedef struct hitgrid_segment {
  float ax, ay, bx, by;
} hitgrid_segment;

/* A ray: origin + t direction, t >= 0, no end; t counts in lengths of the direction (which
 * need not be a unit vector). */
typedef struct hitgrid_ray {
  float ox, oy, dx, dy;
} hitgrid_ray;

/* Two shapes are tested only if (a.category & b.mask) != 0 and (b.category & a.mask) != 0. */
typedef struct hitgrid_filter {
  uint64_t category; /* default 1 */
  uint64_t mask;     /* default every bit */
} hitgrid_filter;

typedef struct hitgrid_shape_def {
  hitgrid_shape shape;
  uint32_t body; /* HITGRID_STATIC or HITGRID_DYNAMIC (the default) */
  hitgrid_filter filter;
  uint64_t user; /* the caller's value, kept with the shape */
} hitgrid_shape_def;

/* Two handles, a < b. Pairs and events are sorted by a, then b. */
typedef struct hitgrid_handle_pair {
  hitgrid_handle a, b;
} hitgrid_handle_pair;

/* A shape a cast meets, first at time t of the cast (a segment's a + t (b - a), t in
 * [0, 1]; a ray's origin + t direction, t >= 0): the hit
 * or miss is exact; |t - t*| <= 2^-45 |t*| and t is exactly 0 when the cast starts in the
 * shape; (x, y) is the cast's point at t, each coordinate within 2^-42 (|start|_inf +
 * max(t, 1) |direction|_inf + S) of the exact first point (S: the largest |coordinate| of
 * the shape; a segment cast's direction is b - a); (nx, ny) the shape's outward unit normal where
 * the cast comes in: a box's entry face and a segment's side exactly, a circle's radius
 * within the bound of CastHit::normal (hitgrid/world/world.hpp); (0, 0) when the cast
 * starts inside, runs along a segment or meets a circle of radius 0. */
typedef struct hitgrid_cast_hit {
  hitgrid_handle handle;
  double t;
  double x, y;
  double nx, ny;
} hitgrid_cast_hit;

/* A moving circle (with a displacement) touches `other` during the frame: kind is a
 * HITGRID_TOI_* (overlapping or touching at t = 0, or an impact at t in (0, 1],
 * |t - t*| <= 2^-46 t*). */
typedef struct hitgrid_impact {
  hitgrid_handle moving;
  hitgrid_handle other;
  uint32_t kind;
  uint32_t reserved;
  double t;
} hitgrid_impact;

/* A program's job system (see Threads). run NULL: the library's own threads. */
typedef void (*hitgrid_task)(void* context, size_t begin, size_t end);
typedef struct hitgrid_task_hook {
  void (*run)(void* user, size_t count, size_t min_range, hitgrid_task task, void* context);
  void* user;       /* handed to run unchanged */
  uint32_t workers; /* threads that run the tasks, 1 to 4096 when run is set */
  uint32_t reserved;
} hitgrid_task_hook;

typedef struct hitgrid_world_options {
  uint32_t threads;      /* 0: every hardware thread; at most 4096 */
  uint32_t isa;          /* HITGRID_ISA_* */
  float cell_size;       /* the grids' cell sides; 0 chooses them from the shapes */
  float large_cell_size;
  float margin;          /* contact margin: shapes at most this far apart touch; >= 0 */
  uint32_t reserved;
  uint64_t small_frame_shapes; /* frames with fewer dynamic shapes, batches of casts into
                                  a world of fewer shapes in all, and batches of fewer
                                  than 64 casts run on the calling thread; default 2048 */
  hitgrid_task_hook tasks;     /* run NULL (the default): the world's own threads */
} hitgrid_world_options;

typedef struct hitgrid_find_pairs_options {
  uint32_t threads;        /* 0: every hardware thread; at most 4096 */
  uint32_t isa;            /* HITGRID_ISA_* */
  float cell_size;         /* 0 chooses it */
  float large_cell_size;   /* 0 chooses it */
  uint32_t method;         /* HITGRID_METHOD_* */
  uint32_t reserved;
  uint64_t max_kept_bytes; /* scratch a finder keeps between calls; default 512 MiB */
  hitgrid_task_hook tasks; /* run NULL (the default): the finder's own threads */
} hitgrid_find_pairs_options;

/* The shapes of one query as rows of floats, packed: segments count x 4 (ax ay bx by),
 * circles count x 3 (cx cy r), boxes count x 4 (minx miny maxx maxy). A pointer may be
 * NULL when its count is 0. */
typedef struct hitgrid_shape_arrays {
  const float* segments;
  size_t segment_count;
  const float* circles;
  size_t circle_count;
  const float* boxes;
  size_t box_count;
} hitgrid_shape_arrays;

/* --- errors and version ------------------------------------------------------------ */

/* The message of the last call on this thread that failed ("" if none did). The pointer
 * is valid until this thread's next failing call. */
const char* hitgrid_last_error(void);
/* For HITGRID_INVALID_HANDLE: the handle refused by the last failing call; else 0. */
hitgrid_handle hitgrid_last_error_handle(void);
/* "HITGRID_OK", "HITGRID_INVALID_SHAPE", ...; "unknown status" for other values. */
const char* hitgrid_status_name(hitgrid_status status);
/* The library's version, as "0.1.0". */
const char* hitgrid_version(void);

/* --- one-shot pairs ---------------------------------------------------------------- */

hitgrid_status hitgrid_find_pairs_options_init(hitgrid_find_pairs_options* options);

/* Every colliding pair of the shapes, sorted, each once. *pairs is allocated by the
 * library (NULL when *count is 0) and owned by the caller: give it back with
 * hitgrid_free. options may be NULL (defaults). */
hitgrid_status hitgrid_find_pairs(const hitgrid_find_pairs_options* options, const hitgrid_shape_arrays* shapes,
                                  hitgrid_pair** pairs, size_t* count);
/* Frees an array hitgrid_find_pairs returned; NULL is fine. */
hitgrid_status hitgrid_free(void* array);

/* A finder keeps its threads and its scratch memory between calls (options may be NULL).
 * hitgrid_pair_finder_find_pairs' *pairs is borrowed: valid until the finder's next
 * find_pairs, release_memory or free. */
hitgrid_status hitgrid_pair_finder_new(const hitgrid_find_pairs_options* options, hitgrid_pair_finder** finder);
hitgrid_status hitgrid_pair_finder_free(hitgrid_pair_finder* finder);
hitgrid_status hitgrid_pair_finder_find_pairs(hitgrid_pair_finder* finder, const hitgrid_shape_arrays* shapes,
                                              const hitgrid_pair** pairs, size_t* count);
/* Gives back the scratch kept for the next call (and the last pair list). */
hitgrid_status hitgrid_pair_finder_release_memory(hitgrid_pair_finder* finder);

static inline uint32_t hitgrid_pair_first(hitgrid_pair p) { return (uint32_t)(p >> 32); }
static inline uint32_t hitgrid_pair_second(hitgrid_pair p) { return (uint32_t)p; }
static inline uint32_t hitgrid_id_kind(uint32_t id) { return id >> 30; }
static inline uint32_t hitgrid_id_index(uint32_t id) { return id & 0x3fffffffu; }

/* --- the world: objects and shapes -------------------------------------------------- */

hitgrid_status hitgrid_world_options_init(hitgrid_world_options* options);
/* options may be NULL (defaults). */
hitgrid_status hitgrid_world_new(const hitgrid_world_options* options, hitgrid_world** world);
hitgrid_status hitgrid_world_free(hitgrid_world* world);

/* Definitions with the defaults (dynamic, category 1, every mask bit, user 0). */
hitgrid_shape_def hitgrid_segment_def(float ax, float ay, float bx, float by);
hitgrid_shape_def hitgrid_circle_def(float cx, float cy, float r);
hitgrid_shape_def hitgrid_box_def(float minx, float miny, float maxx, float maxy);

hitgrid_status hitgrid_world_create(hitgrid_world* world, const hitgrid_shape_def* def, hitgrid_handle* handle);
/* handles[i] for defs[i]. All or nothing. */
hitgrid_status hitgrid_world_create_many(hitgrid_world* world, const hitgrid_shape_def* defs, size_t count,
                                         hitgrid_handle* handles);
/* count shapes of one kind from packed rows (count x 4 floats, or x 3 for circles), all
 * with the same body and filter (NULL: the default); users may be NULL (all 0). */
hitgrid_status hitgrid_world_create_rows(hitgrid_world* world, uint32_t kind, const float* rows, size_t count,
                                         uint32_t body, const hitgrid_filter* filter, const uint64_t* users,
                                         hitgrid_handle* handles);
hitgrid_status hitgrid_world_destroy(hitgrid_world* world, hitgrid_handle handle);
/* Every handle live and given once. All or nothing. */
hitgrid_status hitgrid_world_destroy_many(hitgrid_world* world, const hitgrid_handle* handles, size_t count);
/* New geometry, of any kind. */
hitgrid_status hitgrid_world_move(hitgrid_world* world, hitgrid_handle handle, const hitgrid_shape* shape);
/* shapes[i] for handles[i]; every handle live and given once. All or nothing. */
hitgrid_status hitgrid_world_move_many(hitgrid_world* world, const hitgrid_handle* handles,
                                       const hitgrid_shape* shapes, size_t count);
/* Row i (packed, as hitgrid_world_create_rows) for handles[i]: each shape becomes one of
 * `kind`. All or nothing. */
hitgrid_status hitgrid_world_move_rows(hitgrid_world* world, uint32_t kind, const hitgrid_handle* handles,
                                       const float* rows, size_t count);
hitgrid_status hitgrid_world_set_filter(hitgrid_world* world, hitgrid_handle handle, hitgrid_filter filter);
hitgrid_status hitgrid_world_set_body(hitgrid_world* world, hitgrid_handle handle, uint32_t body);
hitgrid_status hitgrid_world_set_user(hitgrid_world* world, hitgrid_handle handle, uint64_t user);
/* A dynamic circle's displacement over the next frames, for continuous collision
 * (hitgrid_world_impacts); (0, 0): none. HITGRID_ERROR for another shape or a
 * displacement that is not finite (a displacement is not a shape's geometry: not
 * HITGRID_INVALID_SHAPE). */
hitgrid_status hitgrid_world_set_displacement(hitgrid_world* world, hitgrid_handle handle, float dx, float dy);

/* *contains: 1 if the handle names a live shape, else 0 (never an error for a stale one). */
hitgrid_status hitgrid_world_contains(const hitgrid_world* world, hitgrid_handle handle, int* contains);
hitgrid_status hitgrid_world_shape(const hitgrid_world* world, hitgrid_handle handle, hitgrid_shape* shape);
hitgrid_status hitgrid_world_filter(const hitgrid_world* world, hitgrid_handle handle, hitgrid_filter* filter);
hitgrid_status hitgrid_world_body(const hitgrid_world* world, hitgrid_handle handle, uint32_t* body);
hitgrid_status hitgrid_world_user(const hitgrid_world* world, hitgrid_handle handle, uint64_t* user);
hitgrid_status hitgrid_world_displacement(const hitgrid_world* world, hitgrid_handle handle, float* dx, float* dy);
/* Live shapes. */
hitgrid_status hitgrid_world_size(const hitgrid_world* world, size_t* size);

/* --- the world: frames ---------------------------------------------------------------- */

/* The frame: the pairs touching now, the events since the previous step, the impacts. */
hitgrid_status hitgrid_world_step(hitgrid_world* world);
/* After a step, borrowed until the world's next step or free (creating, moving or
 * destroying shapes in between does not change them): the pairs touching, the pairs that
 * began and that stopped touching (an end event may name a destroyed shape), and the
 * impacts of the moving circles, each sorted. Before the first step: empty. */
hitgrid_status hitgrid_world_pairs(hitgrid_world* world, const hitgrid_handle_pair** pairs, size_t* count);
hitgrid_status hitgrid_world_begin_events(hitgrid_world* world, const hitgrid_handle_pair** events, size_t* count);
hitgrid_status hitgrid_world_end_events(hitgrid_world* world, const hitgrid_handle_pair** events, size_t* count);
hitgrid_status hitgrid_world_impacts(hitgrid_world* world, const hitgrid_impact** impacts, size_t* count);

/* --- the world: queries on the current shapes ------------------------------------------
 * Results are borrowed until the world's next query or cast (any function of this
 * section), release_memory or free. `mask`: only shapes whose category shares a bit with it. */

/* The live shapes that intersect `shape` (touching counts, exactly), sorted by handle. A
 * zero-size circle or box is a point query. */
hitgrid_status hitgrid_world_query(hitgrid_world* world, const hitgrid_shape* shape, uint64_t mask,
                                   const hitgrid_handle** handles, size_t* count);
/* Every shape the closed segment touches, by t, then handle. */
hitgrid_status hitgrid_world_cast(hitgrid_world* world, const hitgrid_segment* cast, uint64_t mask,
                                  const hitgrid_cast_hit** hits, size_t* count);
/* Every shape the ray touches, by t, then handle. */
hitgrid_status hitgrid_world_cast_ray(hitgrid_world* world, const hitgrid_ray* ray, uint64_t mask,
                                      const hitgrid_cast_hit** hits, size_t* count);
/* The first shape the cast touches (least t, then least handle): *hit is 1 and *nearest
 * set, or *hit is 0 and *nearest zeroed. Writes into the caller's struct. Stops early:
 * cheaper than the first of all hits. */
hitgrid_status hitgrid_world_cast_nearest(hitgrid_world* world, const hitgrid_segment* cast, uint64_t mask,
                                          hitgrid_cast_hit* nearest, int* hit);
hitgrid_status hitgrid_world_cast_ray_nearest(hitgrid_world* world, const hitgrid_ray* ray, uint64_t mask,
                                              hitgrid_cast_hit* nearest, int* hit);
/* Many casts at once, in parallel on the world's threads, the same answer as one at a
 * time: the hits of casts[i] are hits[offsets[i]] .. hits[offsets[i + 1] - 1] (offsets
 * has count + 1 entries; both borrowed as above); with nearest_only != 0, at most one hit
 * per cast, its nearest. A cast with a NaN or infinite number is HITGRID_ERROR (one
 * refuses its whole batch). */
hitgrid_status hitgrid_world_cast_many(hitgrid_world* world, const hitgrid_segment* casts, size_t count,
                                       uint64_t mask, int nearest_only, const hitgrid_cast_hit** hits,
                                       const size_t** offsets);
hitgrid_status hitgrid_world_cast_ray_many(hitgrid_world* world, const hitgrid_ray* rays, size_t count,
                                           uint64_t mask, int nearest_only, const hitgrid_cast_hit** hits,
                                           const size_t** offsets);

/* Gives back the scratch memory the world keeps between steps (shapes, pairs and events
 * stay). */
hitgrid_status hitgrid_world_release_memory(hitgrid_world* world);

/* --- the rope -------------------------------------------------------------------------
 * A rope pinned at its start that wraps around pegs as its end moves and unwraps when it
 * swings back (hitgrid::Rope; the rules are docs/rope.md). Pegs are points, or circles
 * (from hitgrid_rope_new_from_shapes: the rope runs along their tangents and arcs). Every
 * decision (which pegs are caught, their order, each node's side and half-turn count,
 * every release) is exact on the float32 inputs: the same nodes as the C++ Rope given the
 * same moves. Only the length is rounded (around point pegs within (segments + 3) * 2^-52
 * of the exact length, relatively; around circles, docs/rope.md).
 *
 *   const float pegs[] = {0, 0, 6, 2};                      // x y per peg
 *   hitgrid_rope* rope;
 *   hitgrid_rope_new(-10, 0, pegs, 2, &rope);               // the end starts at the start
 *   hitgrid_rope_move_end(rope, 10, 1);
 *   hitgrid_rope_move_end(rope, 10, -1);                    // catches peg 0, side -1
 *   const hitgrid_rope_node* nodes; size_t n; double length;
 *   hitgrid_rope_nodes(rope, &nodes, &n);                   // the start, then peg 0
 *   hitgrid_rope_length(rope, &length);
 *   hitgrid_rope_free(rope);
 *
 * A point that is not finite (NaN, infinity) is refused with HITGRID_ERROR and a message
 * naming it ("rope end: not a finite point (nan, 1)", "peg 3: ...", "path point 7: ...");
 * so is a peg index that names no peg, a peg move the rope refuses (docs/rope.md,
 * "Moving pegs": a path over another peg or a rope end, among others), circle
 * pegs that touch another peg, and an end whose path meets a circle peg. A refused call
 * leaves the rope as it was
 * (hitgrid_rope_move_end_path checks every point before it moves); the one exception is
 * HITGRID_OUT_OF_MEMORY in the middle of a move, after which the rope may be neither as
 * before nor as after it (free it). A rope is used from one thread at a time; different ropes may be
 * used from different threads at once. */

typedef struct hitgrid_rope hitgrid_rope;

/* The peg of the start node: it is no peg. */
#define HITGRID_ROPE_NO_PEG 0xffffffffu

/* A node of the rope: the start, or a peg the rope is wrapped around. */
typedef struct hitgrid_rope_node {
  float x, y;          /* where it is (a circle peg's centre) */
  uint32_t peg;        /* the peg's index (as given to *_new); HITGRID_ROPE_NO_PEG for the start */
  int32_t side;        /* +1: the rope turns left (counterclockwise) here; -1: right; 0 for the start */
  uint32_t half_turns; /* floor(winding / pi): 0 while wound less than half a turn */
} hitgrid_rope_node;

/* A rope of length zero at (start_x, start_y) among peg_count pegs, packed x y
 * (peg_count x 2 floats; NULL is fine when peg_count is 0). Peg i is pegs[2i], pegs[2i+1]. */
hitgrid_status hitgrid_rope_new(float start_x, float start_y, const float* pegs, size_t peg_count, hitgrid_rope** rope);
/* The pegs a scene of shapes stands for (hitgrid::pegs_of), in this order: each segment's
 * a then b; each circle (its centre, with its radius: radius 0 is a point peg); each box's
 * corners (minx, miny), (maxx, miny), (maxx, maxy),
 * (minx, maxy). So segment i gives pegs 2i and 2i + 1, circle j peg 2 S + j, box k pegs
 * 2 S + C + 4k .. + 3 (S segments, C circles). An invalid shape is HITGRID_INVALID_SHAPE
 * naming it ("box 3"). A world's shapes: read them with hitgrid_world_shape into arrays. */
hitgrid_status hitgrid_rope_new_from_shapes(float start_x, float start_y, const hitgrid_shape_arrays* shapes,
                                            hitgrid_rope** rope);
/* An independent copy (pegs, nodes, end and winding state). */
hitgrid_status hitgrid_rope_copy(const hitgrid_rope* rope, hitgrid_rope** copy);
hitgrid_status hitgrid_rope_free(hitgrid_rope* rope);

/* Moves the end along the straight segment to (x, y), wrapping and releasing on the way. */
hitgrid_status hitgrid_rope_move_end(hitgrid_rope* rope, float x, float y);
/* hitgrid_rope_move_end to each of count points in turn (packed x y, count x 2 floats;
 * NULL is fine when count is 0): the same rope as count calls. All or nothing: every point
 * is checked before the first move. */
hitgrid_status hitgrid_rope_move_end_path(hitgrid_rope* rope, const float* points, size_t count);
/* Moves the start along the straight segment to (x, y): the same rules from the other end. */
hitgrid_status hitgrid_rope_move_start(hitgrid_rope* rope, float x, float y);
/* Moves peg `peg` along the straight segment to (x, y), taking the rope with it: a peg the
 * rope wraps moves with the rope split at it, a free peg whose path crosses the rope
 * catches it there (docs/rope.md, "Moving pegs"). HITGRID_ERROR, the rope unchanged, if
 * it names no peg, or the move is one the rope refuses: the path passes over another peg
 * or the rope's start or end, a free peg's path meets the rope at two places, a wrapped
 * peg's meets another segment than its own two, or the rope wraps the peg twice. */
hitgrid_status hitgrid_rope_move_peg(hitgrid_rope* rope, uint32_t peg, float x, float y);

/* The start, then the wrapped pegs in order from it (*count >= 1). Borrowed: valid and
 * unchanged until the rope's next move (end, path, start or peg, even a refused one) or
 * free. */
hitgrid_status hitgrid_rope_nodes(hitgrid_rope* rope, const hitgrid_rope_node** nodes, size_t* count);
/* Where the end and the start are. */
hitgrid_status hitgrid_rope_end(const hitgrid_rope* rope, float* x, float* y);
hitgrid_status hitgrid_rope_start(const hitgrid_rope* rope, float* x, float* y);
/* The sum of the segments' lengths (start, nodes, end). */
hitgrid_status hitgrid_rope_length(const hitgrid_rope* rope, double* length);
/* The pegs: how many, and where peg `peg` is now (HITGRID_ERROR if it names no peg). */
hitgrid_status hitgrid_rope_peg_count(const hitgrid_rope* rope, size_t* count);
hitgrid_status hitgrid_rope_peg(const hitgrid_rope* rope, uint32_t peg, float* x, float* y);

#ifdef __cplusplus
}
#endif

#endif /* HITGRID_H */
