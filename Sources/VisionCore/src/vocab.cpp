// Hierarchical k-majority vocabulary of 32-byte binary descriptors (see vc_vocab.h).
#include "vc_vocab.h"
#include "status_guard.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <random>
#include <vector>
#include "hot_isa.hpp"

VC_HOT_ISA_BEGIN

namespace {

constexpr size_t kBytes = VC_DESCRIPTOR_BYTES;
constexpr int kMaxLevels = 8;
constexpr int kMaxBranching = 64;
constexpr char kMagic[8] = {'V', 'C', 'V', 'O', 'C', 'A', 'B', '\0'};
constexpr uint32_t kFormatVersion = 1;
// Bytes per serialized node: first_child u32, child_count u32, word i32, descriptor.
constexpr size_t kNodeBytes = 12 + kBytes;
constexpr size_t kHeaderBytes = 8 + 4 + 4 * 3 + 8 + 4 + 4;

inline int hamming(const uint8_t *a, const uint8_t *b) {
    uint64_t x[4], y[4];
    std::memcpy(x, a, kBytes);
    std::memcpy(y, b, kBytes);
    return __builtin_popcountll(x[0] ^ y[0]) + __builtin_popcountll(x[1] ^ y[1]) +
           __builtin_popcountll(x[2] ^ y[2]) + __builtin_popcountll(x[3] ^ y[3]);
}

struct Node {
    uint32_t first_child = 0;
    uint32_t child_count = 0;
    int32_t word = -1;       // leaf: word id; internal: -1
    uint32_t parent = 0;     // root: 0
    int32_t depth = 0;       // root: 0
    uint8_t desc[kBytes] = {};
};

// Majority vote per bit over the members (ties give 0, as in DBoW2).
void majority(const uint8_t *data, const std::vector<uint32_t> &members, uint8_t *out) {
    int counts[kBytes * 8] = {};
    for (uint32_t m : members) {
        const uint8_t *d = data + size_t(m) * kBytes;
        for (size_t byte = 0; byte < kBytes; ++byte)
            for (int bit = 0; bit < 8; ++bit) counts[byte * 8 + bit] += (d[byte] >> bit) & 1;
    }
    const int half = int(members.size());
    for (size_t byte = 0; byte < kBytes; ++byte) {
        uint8_t v = 0;
        for (int bit = 0; bit < 8; ++bit)
            if (2 * counts[byte * 8 + bit] > half) v |= uint8_t(1u << bit);
        out[byte] = v;
    }
}

// Index of the closest centre; ties go to the lowest index (quantisation does the same,
// so a training descriptor always descends into its own cluster).
inline size_t nearest(const uint8_t *d, const std::vector<uint8_t> &centres, size_t k) {
    size_t best = 0;
    int bestDist = 1 << 30;
    for (size_t c = 0; c < k; ++c) {
        int dist = hamming(d, centres.data() + c * kBytes);
        if (dist < bestDist) { bestDist = dist; best = c; }
    }
    return best;
}

// k-majority clustering of `ids`: k-means++ seeding, then alternate assignment and
// majority centroids until stable. Returns non-empty clusters whose members are exactly
// the descriptors nearest to each returned centre.
void kmajority(const uint8_t *data, const std::vector<uint32_t> &ids, int k, int iterations,
               std::mt19937_64 &rng, std::vector<uint8_t> &centresOut,
               std::vector<std::vector<uint32_t>> &membersOut) {
    const size_t n = ids.size();
    std::vector<uint8_t> centres;
    centres.reserve(size_t(k) * kBytes);
    std::vector<double> d2(n, 0);
    {
        size_t first = std::uniform_int_distribution<size_t>(0, n - 1)(rng);
        const uint8_t *c0 = data + size_t(ids[first]) * kBytes;
        centres.insert(centres.end(), c0, c0 + kBytes);
        for (size_t i = 0; i < n; ++i) {
            double d = hamming(data + size_t(ids[i]) * kBytes, c0);
            d2[i] = d * d;
        }
    }
    while (centres.size() < size_t(k) * kBytes) {
        double total = 0;
        for (double v : d2) total += v;
        if (total <= 0) break;  // every descriptor coincides with a centre already
        double r = std::uniform_real_distribution<double>(0, total)(rng);
        size_t pick = 0;
        for (; pick + 1 < n; ++pick) {
            r -= d2[pick];
            if (r < 0) break;
        }
        while (d2[pick] <= 0 && pick > 0) --pick;  // never pick a coincident descriptor
        const uint8_t *c = data + size_t(ids[pick]) * kBytes;
        centres.insert(centres.end(), c, c + kBytes);
        for (size_t i = 0; i < n; ++i) {
            double d = hamming(data + size_t(ids[i]) * kBytes, c);
            d2[i] = std::min(d2[i], d * d);
        }
    }
    const size_t kk = centres.size() / kBytes;
    std::vector<uint32_t> assign(n, UINT32_MAX);
    std::vector<std::vector<uint32_t>> members(kk);
    for (int it = 0;; ++it) {
        bool changed = false;
        for (auto &m : members) m.clear();
        for (size_t i = 0; i < n; ++i) {
            uint32_t c = uint32_t(nearest(data + size_t(ids[i]) * kBytes, centres, kk));
            if (c != assign[i]) { assign[i] = c; changed = true; }
            members[c].push_back(ids[i]);
        }
        if (!changed || it >= iterations) break;
        for (size_t c = 0; c < kk; ++c)
            if (!members[c].empty()) majority(data, members[c], centres.data() + c * kBytes);
    }
    centresOut.clear();
    membersOut.clear();
    for (size_t c = 0; c < kk; ++c) {
        if (members[c].empty()) continue;
        centresOut.insert(centresOut.end(), centres.begin() + c * kBytes, centres.begin() + (c + 1) * kBytes);
        membersOut.push_back(std::move(members[c]));
    }
}

}  // namespace

struct vc_vocab {
    vc_vocab_params params{};
    std::vector<Node> nodes;
    std::vector<uint32_t> wordNodes;  // word id -> node index
    int32_t depth = 0;

    // Walks down to the leaf (or, with stopAtDepth, only to nodeDepth: the word is then
    // not known and -1 is returned as uint32_t).
    uint32_t descend(const uint8_t *d, int32_t nodeDepth, uint32_t *atDepth, bool stopAtDepth = false) const {
        uint32_t cur = 0;
        uint32_t marked = 0;
        while (nodes[cur].child_count > 0 && !(stopAtDepth && nodes[cur].depth >= nodeDepth)) {
            const Node &n = nodes[cur];
            uint32_t best = n.first_child;
            int bestDist = 1 << 30;
            for (uint32_t c = n.first_child; c < n.first_child + n.child_count; ++c) {
                int dist = hamming(d, nodes[c].desc);
                if (dist < bestDist) { bestDist = dist; best = c; }
            }
            cur = best;
            if (nodes[cur].depth <= nodeDepth) marked = cur;
        }
        if (atDepth) *atDepth = nodes[cur].depth <= nodeDepth ? cur : marked;
        return uint32_t(nodes[cur].word);
    }

    // Assigns word ids to leaves in node order, parents and depths from the child links.
    void finish() {
        wordNodes.clear();
        depth = 0;
        for (uint32_t i = 0; i < nodes.size(); ++i) {
            Node &n = nodes[i];
            for (uint32_t c = n.first_child; c < n.first_child + n.child_count; ++c) {
                nodes[c].parent = i;
                nodes[c].depth = n.depth + 1;
            }
            if (n.child_count == 0) {
                n.word = int32_t(wordNodes.size());
                wordNodes.push_back(i);
                depth = std::max(depth, n.depth);
            }
        }
    }
};

extern "C" vc_status vc_vocab_train(const uint8_t *descriptors, size_t count, const vc_vocab_params *params,
                                    vc_vocab **out) {
    if (!out) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (!descriptors || !params || count == 0 || count > UINT32_MAX) return VC_ERR_INVALID_ARGUMENT;
    const vc_vocab_params p = *params;
    if (p.branching < 2 || p.branching > kMaxBranching || p.levels < 1 || p.levels > kMaxLevels ||
        p.iterations < 1)
        return VC_ERR_INVALID_ARGUMENT;
    return vc_guarded([&]() -> vc_status {
        auto *v = new vc_vocab();
        v->params = p;
        std::mt19937_64 rng(p.seed);
        v->nodes.emplace_back();
        std::vector<uint32_t> all(count);
        for (size_t i = 0; i < count; ++i) all[i] = uint32_t(i);
        // Depth-first with an explicit stack; children of a node are appended together so
        // they occupy a contiguous index range.
        struct Work { uint32_t node; std::vector<uint32_t> ids; };
        std::vector<Work> stack;
        stack.push_back({0, std::move(all)});
        std::vector<uint8_t> centres;
        std::vector<std::vector<uint32_t>> members;
        while (!stack.empty()) {
            Work w = std::move(stack.back());
            stack.pop_back();
            const int32_t d = v->nodes[w.node].depth;
            if (d >= p.levels || w.ids.size() <= size_t(p.branching)) continue;  // leaf
            kmajority(descriptors, w.ids, p.branching, p.iterations, rng, centres, members);
            if (members.size() <= 1) continue;  // all identical: nothing to split
            const uint32_t first = uint32_t(v->nodes.size());
            v->nodes[w.node].first_child = first;
            v->nodes[w.node].child_count = uint32_t(members.size());
            for (size_t c = 0; c < members.size(); ++c) {
                Node child;
                child.depth = d + 1;
                child.parent = w.node;
                std::memcpy(child.desc, centres.data() + c * kBytes, kBytes);
                v->nodes.push_back(child);
            }
            // Reverse push so the first child is processed first (deterministic order).
            for (size_t c = members.size(); c-- > 0;) stack.push_back({first + uint32_t(c), std::move(members[c])});
        }
        v->finish();
        *out = v;
        return VC_OK;
    });
}

extern "C" void vc_vocab_free(vc_vocab *vocab) { delete vocab; }

extern "C" uint32_t vc_vocab_word_count(const vc_vocab *v) { return v ? uint32_t(v->wordNodes.size()) : 0; }
extern "C" uint32_t vc_vocab_node_count(const vc_vocab *v) { return v ? uint32_t(v->nodes.size()) : 0; }
extern "C" vc_vocab_params vc_vocab_get_params(const vc_vocab *v) { return v ? v->params : vc_vocab_params{}; }
extern "C" int32_t vc_vocab_depth(const vc_vocab *v) { return v ? v->depth : 0; }

extern "C" vc_status vc_vocab_quantize(const vc_vocab *v, const uint8_t *descriptors, size_t count,
                                       uint32_t *out_words, int32_t node_depth, uint32_t *out_nodes) {
    if (!v || (count > 0 && (!descriptors || (!out_words && !out_nodes)))) return VC_ERR_INVALID_ARGUMENT;
    for (size_t i = 0; i < count; ++i) {
        uint32_t node = 0;
        const uint32_t word = v->descend(descriptors + i * kBytes, node_depth, out_nodes ? &node : nullptr,
                                         out_words == nullptr);
        if (out_words) out_words[i] = word;
        if (out_nodes) out_nodes[i] = node;
    }
    return VC_OK;
}

namespace {

// A node reached by probing: `excess` sums, over its path, how much farther (bits) each
// step's node was than its closest sibling; the plain descent's path has excess 0.
struct Probe {
    int excess;
    uint32_t node;
    bool plain;  // on the plain descent's path
};

// Probing order: the plain descent's node, then by excess (ties: lower node index).
inline bool probes_before(const Probe &a, const Probe &b) {
    if (a.plain != b.plain) return a.plain;
    return a.excess != b.excess ? a.excess < b.excess : a.node < b.node;
}

// Inserts p into the sorted list[0..n) kept to at most k entries.
inline void insert_probe(Probe *list, int &n, int k, const Probe &p) {
    if (n == k && !probes_before(p, list[n - 1])) return;
    int i = n < k ? n++ : n - 1;
    for (; i > 0 && probes_before(p, list[i - 1]); --i) list[i] = list[i - 1];
    list[i] = p;
}

}  // namespace

extern "C" vc_status vc_vocab_quantize_probes(const vc_vocab *v, const uint8_t *descriptors, size_t count,
                                              int32_t node_depth, int32_t max_probes, int32_t slack_bits,
                                              int32_t *out_offsets, uint32_t *out_nodes, size_t capacity) {
    if (!v || !out_offsets || max_probes < 1 || max_probes > 64 || slack_bits < 0 ||
        (count > 0 && (!descriptors || !out_nodes)) || capacity < count * size_t(max_probes) ||
        count * size_t(max_probes) > size_t(INT32_MAX))
        return VC_ERR_INVALID_ARGUMENT;
    Probe frontier[64], next[64];
    int dist[kMaxBranching];
    size_t written = 0;
    out_offsets[0] = 0;
    for (size_t i = 0; i < count; ++i) {
        const uint8_t *d = descriptors + i * kBytes;
        int nf = 1;
        frontier[0] = {0, 0, true};
        for (int level = 1; level <= node_depth; ++level) {
            int nn = 0;
            bool expanded = false;
            for (int f = 0; f < nf; ++f) {
                const Probe &from = frontier[f];
                const Node &n = v->nodes[from.node];
                if (n.child_count == 0) {  // a shallow leaf stays as it is
                    insert_probe(next, nn, max_probes, from);
                    continue;
                }
                expanded = true;
                int best = 1 << 30;
                uint32_t closest = n.first_child;
                for (uint32_t c = 0; c < n.child_count; ++c) {
                    dist[c] = hamming(d, v->nodes[n.first_child + c].desc);
                    if (dist[c] < best) { best = dist[c]; closest = n.first_child + c; }
                }
                for (uint32_t c = 0; c < n.child_count; ++c) {
                    const int excess = from.excess + dist[c] - best;
                    if (excess > slack_bits) continue;
                    const uint32_t node = n.first_child + c;
                    insert_probe(next, nn, max_probes, {excess, node, from.plain && node == closest});
                }
            }
            if (!expanded) break;
            std::copy(next, next + nn, frontier);
            nf = nn;
        }
        for (int f = 0; f < nf; ++f) out_nodes[written++] = frontier[f].node;
        out_offsets[i + 1] = int32_t(written);
    }
    return VC_OK;
}

extern "C" vc_status vc_vocab_word_ancestor(const vc_vocab *v, uint32_t word, int32_t node_depth,
                                            uint32_t *out_node) {
    if (!v || !out_node || word >= v->wordNodes.size()) return VC_ERR_INVALID_ARGUMENT;
    uint32_t n = v->wordNodes[word];
    while (v->nodes[n].depth > node_depth && n != 0) n = v->nodes[n].parent;
    *out_node = n;
    return VC_OK;
}

namespace {
void put32(uint8_t *&p, uint32_t x) { for (int i = 0; i < 4; ++i) *p++ = uint8_t(x >> (8 * i)); }
void put64(uint8_t *&p, uint64_t x) { for (int i = 0; i < 8; ++i) *p++ = uint8_t(x >> (8 * i)); }
uint32_t get32(const uint8_t *&p) {
    uint32_t x = 0;
    for (int i = 0; i < 4; ++i) x |= uint32_t(*p++) << (8 * i);
    return x;
}
uint64_t get64(const uint8_t *&p) {
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= uint64_t(*p++) << (8 * i);
    return x;
}
}  // namespace

extern "C" size_t vc_vocab_serialized_size(const vc_vocab *v) {
    return v ? kHeaderBytes + v->nodes.size() * kNodeBytes : 0;
}

extern "C" vc_status vc_vocab_serialize(const vc_vocab *v, uint8_t *buffer, size_t capacity, size_t *written) {
    if (!v || !buffer || !written) return VC_ERR_INVALID_ARGUMENT;
    const size_t need = vc_vocab_serialized_size(v);
    if (capacity < need) return VC_ERR_INVALID_ARGUMENT;
    uint8_t *p = buffer;
    std::memcpy(p, kMagic, 8);
    p += 8;
    put32(p, kFormatVersion);
    put32(p, uint32_t(v->params.branching));
    put32(p, uint32_t(v->params.levels));
    put32(p, uint32_t(v->params.iterations));
    put64(p, v->params.seed);
    put32(p, uint32_t(v->nodes.size()));
    put32(p, uint32_t(v->wordNodes.size()));
    for (const Node &n : v->nodes) {
        put32(p, n.first_child);
        put32(p, n.child_count);
        put32(p, uint32_t(n.word));
        std::memcpy(p, n.desc, kBytes);
        p += kBytes;
    }
    *written = size_t(p - buffer);
    return VC_OK;
}

extern "C" vc_status vc_vocab_deserialize(const uint8_t *bytes, size_t size, vc_vocab **out) {
    if (!out) return VC_ERR_INVALID_ARGUMENT;
    *out = nullptr;
    if (!bytes || size < kHeaderBytes || std::memcmp(bytes, kMagic, 8) != 0) return VC_ERR_DECODE;
    return vc_guarded([&]() -> vc_status {
        const uint8_t *p = bytes + 8;
        if (get32(p) != kFormatVersion) return VC_ERR_DECODE;
        vc_vocab_params params;
        params.branching = int32_t(get32(p));
        params.levels = int32_t(get32(p));
        params.iterations = int32_t(get32(p));
        params.seed = get64(p);
        const uint32_t nodeCount = get32(p);
        const uint32_t wordCount = get32(p);
        if (params.branching < 2 || params.branching > kMaxBranching || params.levels < 1 ||
            params.levels > kMaxLevels || params.iterations < 1 || nodeCount == 0 || wordCount == 0 ||
            wordCount > nodeCount || (size - kHeaderBytes) / kNodeBytes != nodeCount ||
            (size - kHeaderBytes) % kNodeBytes != 0)
            return VC_ERR_DECODE;
        auto v = std::unique_ptr<vc_vocab>(new vc_vocab());
        v->params = params;
        v->nodes.resize(nodeCount);
        for (Node &n : v->nodes) {
            n.first_child = get32(p);
            n.child_count = get32(p);
            n.word = int32_t(get32(p));
            std::memcpy(n.desc, p, kBytes);
            p += kBytes;
        }
        // Structure: every node but the root has exactly one parent with a smaller index
        // (so the links form a tree, no cycles), depth stays within `levels`, leaves carry
        // the words 0..wordCount-1 in node order.
        std::vector<uint8_t> hasParent(nodeCount, 0);
        for (uint32_t i = 0; i < nodeCount; ++i) {
            const Node &n = v->nodes[i];
            if (n.child_count > uint32_t(params.branching)) return VC_ERR_DECODE;
            if (n.child_count > 0) {
                if (n.first_child <= i || n.first_child > nodeCount || n.child_count > nodeCount - n.first_child)
                    return VC_ERR_DECODE;
                for (uint32_t c = n.first_child; c < n.first_child + n.child_count; ++c) {
                    if (hasParent[c]) return VC_ERR_DECODE;
                    hasParent[c] = 1;
                }
            }
        }
        for (uint32_t i = 1; i < nodeCount; ++i)
            if (!hasParent[i]) return VC_ERR_DECODE;
        for (Node &n : v->nodes) { n.depth = 0; }
        const std::vector<int32_t> storedWords = [&] {
            std::vector<int32_t> w;
            for (const Node &n : v->nodes) w.push_back(n.word);
            return w;
        }();
        for (Node &n : v->nodes) n.word = -1;
        v->finish();
        if (v->wordNodes.size() != wordCount || v->depth > params.levels) return VC_ERR_DECODE;
        for (uint32_t i = 0; i < nodeCount; ++i)
            if (storedWords[i] != v->nodes[i].word) return VC_ERR_DECODE;
        for (const Node &n : v->nodes)
            if (n.depth > params.levels) return VC_ERR_DECODE;
        *out = v.release();
        return VC_OK;
    });
}

VC_HOT_ISA_END
