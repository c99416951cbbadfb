/* The start of every generated OpenCL program: the C names runtime/scalar.h
 * uses (fixed-width types, limits, math functions with an f suffix,
 * GCC builtins) in OpenCL C terms, so that the scalar operations of kernels
 * are the same code as the C backend's, with the same results (but for
 * rsqrt, OpenCL's own: within 2 ulp, as Futhark's GPU backends allow). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
/* Results as the C backend computes them: no fused multiply-adds. */
#pragma OPENCL FP_CONTRACT OFF

typedef char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef uchar uint8_t;
typedef ushort uint16_t;
typedef uint uint32_t;
typedef ulong uint64_t;

#define INT8_MIN (-128)
#define INT8_MAX 127
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define INT64_MIN (-9223372036854775807L - 1)
#define INT64_MAX 9223372036854775807L
#define UINT8_MAX 255
#define UINT16_MAX 65535
#define UINT32_MAX 4294967295U
#define UINT64_MAX 18446744073709551615UL

#define __builtin_popcountll(x) ((int)popcount((ulong)(x)))
#define __builtin_clzll(x) ((int)clz((ulong)(x)))
#define __builtin_ctzll(x) ((int)(63 - clz((ulong)(x) & (0UL - (ulong)(x)))))

#define fmodf fmod
#define powf pow
#define fminf fmin
#define fmaxf fmax
#define atan2f atan2
#define hypotf hypot
#define fabsf fabs
#define rintf rint
#define sqrtf sqrt
#define RT_RSQRT(T, S, x) rsqrt(x)
#define cbrtf cbrt
#define expf exp
#define logf log
#define log2f log2
#define log10f log10
#define sinf sin
#define cosf cos
#define tanf tan
#define asinf asin
#define acosf acos
#define atanf atan
#define sinhf sinh
#define coshf cosh
#define tanhf tanh
#define floorf floor
#define ceilf ceil
#define truncf trunc
#define asinhf asinh
#define acoshf acosh
#define atanhf atanh
#define log1pf log1p
#define tgammaf tgamma
#define lgammaf lgamma
#define erff erf
#define erfcf erfc
#define nextafterf nextafter
#define copysignf copysign
#define ldexpf ldexp
#define fmaf fma

/* Atomic addition of floats in global and local memory: one reduction
 * instruction on NVIDIA devices (the runtime defines RT_NVIDIA when it
 * builds for one), a compare-and-swap loop elsewhere. */
#ifdef RT_NVIDIA
static inline void rt_fadd_global_f32(volatile __global float *p, float v) {
    asm volatile("red.global.add.f32 [%0], %1;" : : "l"(p), "f"(v) : "memory");
}
static inline void rt_fadd_local_f32(volatile __local float *p, float v) {
    asm volatile("red.shared.add.f32 [%0], %1;" : : "l"((ulong)p), "f"(v) : "memory");
}
static inline void rt_fadd_global_f64(volatile __global double *p, double v) {
    asm volatile("red.global.add.f64 [%0], %1;" : : "l"(p), "d"(v) : "memory");
}
static inline void rt_fadd_local_f64(volatile __local double *p, double v) {
    asm volatile("red.shared.add.f64 [%0], %1;" : : "l"((ulong)p), "d"(v) : "memory");
}
#else
#define RT_FADD_CAS(NAME, SPACE, T, U, AS_T, AS_U, CMPXCHG)                    \
    static inline void NAME(volatile SPACE T *p, T v) {                        \
        volatile SPACE U *q = (volatile SPACE U *)p;                           \
        U old = *q, seen;                                                      \
        do {                                                                   \
            seen = old;                                                        \
            old = CMPXCHG(q, seen, AS_U(AS_T(seen) + v));                      \
        } while (old != seen);                                                 \
    }
RT_FADD_CAS(rt_fadd_global_f32, __global, float, uint, as_float, as_uint, atomic_cmpxchg)
RT_FADD_CAS(rt_fadd_local_f32, __local, float, uint, as_float, as_uint, atomic_cmpxchg)
RT_FADD_CAS(rt_fadd_global_f64, __global, double, ulong, as_double, as_ulong, atom_cmpxchg)
RT_FADD_CAS(rt_fadd_local_f64, __local, double, ulong, as_double, as_ulong, atom_cmpxchg)
#endif

/* A fence that orders a work-item's device memory accesses for every
 * work-group of the device (IMP_FENCE): NVIDIA's OpenCL compiles
 * mem_fence(CLK_GLOBAL_MEM_FENCE) to membar.cta, which orders them for the
 * work-item's own group only, so it gets membar.gl itself. */
#ifdef RT_NVIDIA
static inline void rt_fence_global(void) { asm volatile("membar.gl;" : : : "memory"); }
#else
static inline void rt_fence_global(void) { mem_fence(CLK_GLOBAL_MEM_FENCE); }
#endif
