#ifndef VC_MATCH_H
#define VC_MATCH_H
/* Hamming matching of 256-bit descriptors (32 bytes each, contiguous, caller-owned) with
 * hardware popcount: brute force, and guided by per-query candidate lists. */
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct vc_match {
    int32_t query;           /* index into the query descriptors */
    int32_t train;           /* index into the train descriptors */
    int32_t distance;        /* Hamming distance of the best train candidate (0..256) */
    int32_t second_distance; /* of the second best candidate; 257 when there is none */
} vc_match;

typedef struct vc_match_options {
    float ratio;          /* keep when distance < ratio * second_distance; <= 0 disables */
    int32_t max_distance; /* keep when distance <= max_distance; >= 256 disables */
    int32_t mutual;       /* nonzero: keep only pairs that are each other's best (one-to-one) */
} vc_match_options;

/* Hamming distance of two 32-byte descriptors. */
int32_t vc_hamming_distance(const uint8_t *a, const uint8_t *b);

/* Brute force: for each of n_query descriptors the nearest of n_train. Writes at most
 * n_query matches to out (caller-owned, capacity n_query), ordered by query index, and
 * their number to *count. */
vc_status vc_match_bruteforce(const uint8_t *query, int32_t n_query, const uint8_t *train,
                              int32_t n_train, const vc_match_options *options, vc_match *out,
                              int32_t *count);

/* Guided: query i is compared only with the train indices
 * candidates[offsets[i] .. offsets[i+1]) (CSR layout; offsets has n_query+1 entries,
 * offsets[0] == 0; indices outside 0..n_train-1 are an error). The second distance is the
 * second best among the candidates. With `mutual`, a train descriptor claimed by several
 * queries goes to the closest one only. Output as vc_match_bruteforce. */
vc_status vc_match_guided(const uint8_t *query, int32_t n_query, const uint8_t *train,
                          int32_t n_train, const int32_t *offsets, const int32_t *candidates,
                          const vc_match_options *options, vc_match *out, int32_t *count);

/* Bucketed: the train descriptors are grouped in contiguous runs, bucket b being train
 * indices bucket_offsets[b] .. bucket_offsets[b+1] (e.g. the map points under one
 * vocabulary node, stored together so a query reads consecutive memory). Query i is
 * compared with every descriptor of each bucket in
 * query_buckets[query_offsets[i] .. query_offsets[i+1]). bucket_offsets has n_buckets+1
 * non-decreasing entries from 0 to at most n_train; query_offsets has n_query+1 entries
 * from 0; a bucket index out of range is an error. All arrays are borrowed. Output as
 * vc_match_bruteforce (train indices, not buckets). */
vc_status vc_match_buckets(const uint8_t *query, int32_t n_query, const uint8_t *train, int32_t n_train,
                           const int32_t *bucket_offsets, int32_t n_buckets,
                           const int32_t *query_offsets, const int32_t *query_buckets,
                           const vc_match_options *options, vc_match *out, int32_t *count);

/* As vc_match_buckets, with train_groups (n_train entries, borrowed; NULL: every
 * descriptor its own group) naming the group of each train descriptor — e.g. the map point
 * of each of a point's several descriptors. The ratio test then compares the best
 * descriptor with the best of any other group, so descriptors of one point never fail
 * each other's test. The mutual check still works per train descriptor. */
vc_status vc_match_buckets_grouped(const uint8_t *query, int32_t n_query, const uint8_t *train, int32_t n_train,
                                   const int32_t *bucket_offsets, int32_t n_buckets,
                                   const int32_t *query_offsets, const int32_t *query_buckets,
                                   const int32_t *train_groups, const vc_match_options *options,
                                   vc_match *out, int32_t *count);

/* As vc_match_buckets_grouped, with train_mask (n_train bytes, borrowed; NULL: all): a train
 * descriptor whose mask byte is 0 is skipped, as if its bucket did not hold it — e.g. every
 * map point outside the place a frame was retrieved in, so look-alikes elsewhere in a large
 * map do not fail the ratio test of the right match. */
vc_status vc_match_buckets_masked(const uint8_t *query, int32_t n_query, const uint8_t *train, int32_t n_train,
                                  const int32_t *bucket_offsets, int32_t n_buckets,
                                  const int32_t *query_offsets, const int32_t *query_buckets,
                                  const int32_t *train_groups, const uint8_t *train_mask,
                                  const vc_match_options *options, vc_match *out, int32_t *count);

#ifdef __cplusplus
}
#endif
#endif
