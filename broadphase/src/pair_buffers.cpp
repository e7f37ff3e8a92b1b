#include "pair_buffers.hpp"

#include "hitgrid/broadphase/detail/parallel.hpp"

namespace hitgrid {

PairList merge_pair_buffers(PairBuffers& buffers) {
  std::size_t total = 0;
  for (const PairList& b : buffers) total += b.size();
  PairList out;
  out.reserve(total);
  for (PairList& b : buffers) {
    out.insert(out.end(), b.begin(), b.end());
    PairList().swap(b);  // release as we go: keeps peak memory near one copy of the list
  }
  detail::parallel_sort(out.begin(), out.end());
  return out;
}

}  // namespace hitgrid
