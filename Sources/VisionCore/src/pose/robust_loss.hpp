// Robust losses on squared residuals s = |r|² (pixels²), with IRLS weights ρ'(s).
#pragma once
#include <algorithm>
#include <cmath>

namespace vc {

enum class LossKind { Trivial = 0, Huber = 1, Cauchy = 2, Truncated = 3 };

struct RobustLoss {
    LossKind kind = LossKind::Cauchy;
    double c2 = 1;  // scale², pixels²

    double cost(double s) const {
        switch (kind) {
        case LossKind::Trivial: return s;
        case LossKind::Huber: {
            if (s <= c2) return s;
            const double c = std::sqrt(c2);
            return 2 * c * std::sqrt(s) - c2;
        }
        case LossKind::Cauchy: return c2 * std::log1p(s / c2);
        case LossKind::Truncated: return std::min(s, c2);
        }
        return s;
    }
    double weight(double s) const {
        switch (kind) {
        case LossKind::Trivial: return 1;
        case LossKind::Huber: return s <= c2 ? 1 : std::sqrt(c2 / s);
        case LossKind::Cauchy: return 1 / (1 + s / c2);
        case LossKind::Truncated: return s < c2 ? 1 : 0;
        }
        return 1;
    }
};

}  // namespace vc
