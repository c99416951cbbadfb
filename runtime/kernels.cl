/* Built-in OpenCL kernels of generated programs: copies between LMAD
 * layouts, fills, iotas and a tiled transpose, one of each per element
 * size (1, 2, 4 and 8 bytes, as uchar ... ulong: they move bits). The
 * generated program puts this text first in its OpenCL source and lists
 * these kernels first, in the order rt_cl_builtin (runtime/opencl.h)
 * expects. Argument 0 of every kernel is the failure record. */

/* A local-memory index with one word of padding after every 32, so that
 * work-items reading consecutive runs of elements (a scan's chunks) hit
 * different banks. */
#define RT_PAD(x) ((x) + ((x) >> 5))

/* The element offset of flat index i in an LMAD of rank r. */
static inline long rt_lmad_offset(long off, long8 strides, long8 shape, int r, long i) {
    long st[8] = {strides.s0, strides.s1, strides.s2, strides.s3, strides.s4, strides.s5, strides.s6, strides.s7};
    long sh[8] = {shape.s0, shape.s1, shape.s2, shape.s3, shape.s4, shape.s5, shape.s6, shape.s7};
    for (int d = r - 1; d >= 0; d--) {
        off += (i % sh[d]) * st[d];
        i /= sh[d];
    }
    return off;
}

#define RT_BUILTINS(T, E, S)                                                                        \
    __kernel void rt_copy_##E(__global long *rt_fail, __global T *dst, long doff, long8 ds,       \
                              __global const T *src, long soff, long8 ss, long8 shape, int r,      \
                              long n) {                                                            \
        long i = get_global_id(0);                                                                 \
        if (i >= n) return;                                                                        \
        dst[rt_lmad_offset(doff, ds, shape, r, i)] = src[rt_lmad_offset(soff, ss, shape, r, i)];   \
    }                                                                                              \
    __kernel void rt_fill_##E(__global long *rt_fail, __global T *dst, long doff, long8 ds,       \
                              long8 shape, int r, long n, ulong bits) {                            \
        long i = get_global_id(0);                                                                 \
        if (i >= n) return;                                                                        \
        dst[rt_lmad_offset(doff, ds, shape, r, i)] = (T)bits;                                      \
    }                                                                                              \
    __kernel void rt_iota_##E(__global long *rt_fail, __global T *dst, long off, long stride,     \
                              long n, long start, long step) {                                     \
        long i = get_global_id(0);                                                                 \
        if (i >= n) return;                                                                        \
        dst[off + i * stride] = (T)((ulong)start + (ulong)i * (ulong)step);                        \
    }                                                                                              \
    /* dst(i, j) = src(i, j) over rows x cols where src's column is contiguous */                  \
    /* (stride 1 along i) and dst's row is: S x S tiles through local memory so */                 \
    /* that both the reads and the writes are coalesced, in groups of S x 256/S */                 \
    /* work-items (runtime/opencl.h's rt_cl_transpose_side gives S). */                            \
    __kernel void rt_transpose_##E(__global long *rt_fail, __global T *dst, __global const T *src, \
                                   long doff, long drow, long soff, long scol, long rows,          \
                                   long cols) {                                                    \
        __local T tile[S][S + 1];                                                                  \
        long i0 = get_group_id(0) * S, j0 = get_group_id(1) * S;                                   \
        int tx = get_local_id(0), ty = get_local_id(1);                                            \
        for (int k = 0; k < S; k += 256 / S) {                                                     \
            long i = i0 + tx, j = j0 + ty + k;                                                     \
            if (i < rows && j < cols) tile[ty + k][tx] = src[soff + i + j * scol];                 \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        for (int k = 0; k < S; k += 256 / S) {                                                     \
            long i = i0 + ty + k, j = j0 + tx;                                                     \
            if (i < rows && j < cols) dst[doff + i * drow + j] = tile[tx][ty + k];                 \
        }                                                                                          \
    }                                                                                              \
    /* The same for an array less high or wide than S: tiles of 2^ti x 2^tj = */                 \
    /* S x S elements, as high or as wide as the array, so that no work-item */                   \
    /* idles (runtime/opencl.h's rt_cl_transpose_tile); groups of 256. */                         \
    __kernel void rt_transpose_skinny_##E(__global long *rt_fail, __global T *dst,                \
                                          __global const T *src, long doff, long drow, long soff,  \
                                          long scol, long rows, long cols, int ti, int tj) {       \
        __local T tile[S * S + S * S / 8];                                                         \
        long i0 = (long)get_group_id(0) << ti, j0 = (long)get_group_id(1) << tj;                   \
        int mi = (1 << ti) - 1, mj = (1 << tj) - 1;                                                \
        for (int x = get_local_id(0); x < S * S; x += 256) {                                       \
            int a = x & mi, b = x >> ti;                                                           \
            long i = i0 + a, j = j0 + b;                                                           \
            if (i < rows && j < cols) tile[b * (mi + 2) + a] = src[soff + i + j * scol];          \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        for (int x = get_local_id(0); x < S * S; x += 256) {                                       \
            int b = x & mj, a = x >> tj;                                                           \
            long i = i0 + a, j = j0 + b;                                                           \
            if (i < rows && j < cols) dst[doff + i * drow + j] = tile[b * (mi + 2) + a];           \
        }                                                                                          \
    }

RT_BUILTINS(uchar, 1, 64)
RT_BUILTINS(ushort, 2, 64)
RT_BUILTINS(uint, 4, 64)
RT_BUILTINS(ulong, 8, 32)
