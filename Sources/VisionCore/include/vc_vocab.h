#ifndef VC_VOCAB_H
#define VC_VOCAB_H
/* A hierarchical k-majority vocabulary of binary (ORB, 32-byte) descriptors, in the
 * manner of DBoW2 (Galvez-Lopez & Tardos 2012): a tree with `branching` children per
 * node and at most `levels` levels below the root, trained by k-majority clustering
 * (k-means++ seeding under Hamming distance, bitwise-majority centroids). Its leaves
 * are the words. A descriptor is quantised by descending from the root to the closest
 * child at each level.
 *
 * The map builder trains one per map on the points' representative descriptors; the
 * localizer quantises query descriptors and looks map points up by word (an inverted
 * index), or by the word's ancestor at a coarser depth (a "direct index" of ~branching
 * times more points, robust to quantisation near cluster borders). */
#include <stddef.h>
#include <stdint.h>
#include "vc_common.h"
#ifdef __cplusplus
extern "C" {
#endif

#ifndef VC_DESCRIPTOR_BYTES
#define VC_DESCRIPTOR_BYTES 32
#endif

/* Opaque, immutable after creation. Every function taking a const vc_vocab * is safe to
 * call from many threads at once. */
typedef struct vc_vocab vc_vocab;

typedef struct vc_vocab_params {
    int32_t branching;   /* k: children per node, 2...64 (DBoW2/ORB-SLAM use 10) */
    int32_t levels;      /* L: maximum depth below the root, 1...8 */
    int32_t iterations;  /* k-majority iterations per split, >= 1 (stops early when stable) */
    uint64_t seed;       /* seeding randomness: same input + seed => same vocabulary */
} vc_vocab_params;

/* Trains a vocabulary from `count` descriptors of 32 bytes each (row-major, borrowed for
 * the call). A node holding no more than `branching` descriptors becomes a leaf, so small
 * inputs give shallow trees. On VC_OK, *out is a new vocabulary the caller owns and frees
 * with vc_vocab_free. count == 0 is VC_ERR_INVALID_ARGUMENT. */
vc_status vc_vocab_train(const uint8_t *descriptors, size_t count, const vc_vocab_params *params,
                         vc_vocab **out);

/* Frees a vocabulary from vc_vocab_train or vc_vocab_deserialize. NULL is a no-op. */
void vc_vocab_free(vc_vocab *vocab);

/* Number of words (leaves); words are numbered 0..word_count-1. */
uint32_t vc_vocab_word_count(const vc_vocab *vocab);
/* Number of nodes including the root (node 0); nodes are numbered 0..node_count-1. */
uint32_t vc_vocab_node_count(const vc_vocab *vocab);
/* Parameters the vocabulary was trained with. */
vc_vocab_params vc_vocab_get_params(const vc_vocab *vocab);
/* Depth of the deepest leaf (<= levels). */
int32_t vc_vocab_depth(const vc_vocab *vocab);

/* Quantises `count` descriptors (count*32 bytes, borrowed) into words: out_words[i] gets
 * the word of descriptor i. When out_nodes is not NULL, out_nodes[i] gets the node on the
 * descriptor's path at depth `node_depth` (1 = children of the root), or the leaf itself
 * when the leaf is shallower. out_words may be NULL when out_nodes is not: the descent
 * then stops at `node_depth` (cheaper). Output arrays are caller-owned, `count` entries each. */
vc_status vc_vocab_quantize(const vc_vocab *vocab, const uint8_t *descriptors, size_t count,
                            uint32_t *out_words, int32_t node_depth, uint32_t *out_nodes);

/* Multi-probe quantisation: for descriptor i, the nodes at depth `node_depth` (leaves when
 * shallower) whose path from the root is at most `slack_bits` worse than the plain
 * descent's, counting at each level how much farther (Hamming bits) the node taken is than
 * its closest sibling. At most `max_probes` (1..64) of them: the plain descent's node
 * (vc_vocab_quantize's) first, then the least worse. out_nodes[out_offsets[i] ..
 * out_offsets[i+1]) lists them. Caller-owned outputs: out_offsets count+1 entries,
 * out_nodes `capacity` >= count*max_probes entries. A descriptor that blur moved across a
 * cluster boundary by a few bits at some level still reaches the node its map point was
 * filed under. */
vc_status vc_vocab_quantize_probes(const vc_vocab *vocab, const uint8_t *descriptors, size_t count,
                                   int32_t node_depth, int32_t max_probes, int32_t slack_bits,
                                   int32_t *out_offsets, uint32_t *out_nodes, size_t capacity);

/* The node at depth `node_depth` on the path from the root to `word` (the word's own node
 * when it is shallower). Writes *out_node. Lets callers group stored words by ancestor. */
vc_status vc_vocab_word_ancestor(const vc_vocab *vocab, uint32_t word, int32_t node_depth,
                                 uint32_t *out_node);

/* Bytes vc_vocab_serialize writes. */
size_t vc_vocab_serialized_size(const vc_vocab *vocab);

/* Writes the vocabulary into `buffer` (caller-owned, `capacity` bytes, at least
 * vc_vocab_serialized_size). Little-endian, versioned; *written gets the byte count. */
vc_status vc_vocab_serialize(const vc_vocab *vocab, uint8_t *buffer, size_t capacity, size_t *written);

/* Reads a vocabulary from bytes (borrowed for the call) and validates its structure:
 * damaged or truncated input gives VC_ERR_DECODE, never a crash. On VC_OK, *out is a new
 * vocabulary the caller owns (vc_vocab_free). */
vc_status vc_vocab_deserialize(const uint8_t *bytes, size_t size, vc_vocab **out);

#ifdef __cplusplus
}
#endif
#endif
