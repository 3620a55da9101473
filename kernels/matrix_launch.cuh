// The host side of the matrix family: the launches that reduce each row, each column, or the
// whole matrix. Shared by launch.cu (results and traces) and bench.cu (timing).
#pragma once
#include "launch_impl.cuh"
#include "matrix.cuh"
#include "short_rows.cuh"

namespace rl::kernels {
inline namespace launch_detail {

// In: the input's element type; T: the accumulator's, which the outputs take.
template <class T, class Op, class In = T>
class MatrixReducer {
 public:
  // plan: a matrix plan (make_plan), checked for the kernel when it was made.
  MatrixReducer(const Plan& plan, RawTrace<T>* trace, cudaStream_t stream)
      : algo_(plan.algo()),
        launch_(plan.launch()),
        trace_(trace),
        stream_(stream),
        m_(plan.shape),
        grid_(plan.grid),
        partial_count_(plan.passes[0].outputs),
        second_pass_(plan.pass_count > 1) {}

  // Allocates what every later enqueue needs, so timed runs allocate nothing.
  void prepare() {
    out_ = std::make_unique<DeviceArray<T>>(matrix_outputs(algo_, m_));
    partials_.reset(), tickets_.reset();
    if (second_pass_) partials_ = std::make_unique<DeviceArray<T>>(partial_count_);
    if (algo_ == Algo::BatchedRowsVectorized && partials_) {  // a ticket counter a row
      tickets_ = std::make_unique<DeviceArray<unsigned>>(m_.rows);
      tickets_->fill_bytes(0);  // the last block of a row wraps its counter back to 0
    }
  }

  // Enqueues every launch of one reduction of the matrix at in; returns where the outputs
  // will be. Traced runs synchronise to copy the recording back.
  const T* enqueue(const In* in) {
    T* first_out = partials_ ? partials_->get() : out_->get();
    first_pass([&](auto probe) { launch(in, first_out, m_, grid_, dim3(block_x(), block_y()), probe); });
    if constexpr (!kNarrowRun<T, In>) later_phases(first_out);  // the narrow rows' one launch leaves the outputs
    return out_->get();
  }

  // Phase 2 where the kernel has one: over the first pass's partials, into the outputs.
  void later_phases(T* first_out) {
    if (is_column_sums(algo_) && partials_)  // phase 2: the partials' columns, one chunk
      launch(first_out, out_->get(), {grid_.y, m_.cols}, {grid_.x, 1}, dim3(block_x(), block_y()), NoProbe{});
    if (algo_ == Algo::BatchedRowsSplit && partials_) {  // phase 2: a block per row of chunk results
      batched_rows<T, Op><<<unsigned(m_.rows), launch_.block, std::size_t(launch_.block) * sizeof(T), stream_>>>(
          first_out, out_->get(), grid_.x, NoProbe{});
      RL_CUDA(cudaGetLastError());
    }
    if (algo_ == Algo::Block2d)  // one block, a row of B threads, over the partials
      launch(first_out, out_->get(), {1, grid_.count()}, {1, 1}, dim3(unsigned(launch_.block), 1), NoProbe{});
  }

  std::vector<T> run(const In* host_in) { return run_each({host_in})[0]; }

  // One prepare, then each input in turn through the same buffers.
  std::vector<std::vector<T>> run_each(const std::vector<const In*>& host_ins) {
    const Matrix m = m_;
    DeviceArray<In> input(m.size());
    prepare();
    std::vector<std::vector<T>> outs;
    for (const In* host_in : host_ins) {
      input.from_host(host_in, m.size());
      const T* result = enqueue(input.get());
      std::vector<T>& out = outs.emplace_back(matrix_outputs(algo_, m));
      RL_CUDA(cudaMemcpyAsync(out.data(), result, out.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_));
      RL_CUDA(cudaStreamSynchronize(stream_));
    }
    return outs;
  }

 private:
  unsigned block_x() const { return unsigned(matrix_block_x(algo_, launch_.block, m_.cols)); }
  unsigned block_y() const { return unsigned(launch_.block) / block_x(); }

  template <class Kernel>
  void first_pass(Kernel kernel) {
    if (!trace_) {
      kernel(NoProbe{});
      return;
    }
    const std::size_t partials = std::min(partial_count_, kMaxPartials);
    TraceBuffers<T> buf(matrix_trace_shape(algo_, launch_.block, m_, sizeof(In)), launch_.block, partials, 0);
    kernel(buf.probe(launch_.trace_block));
    RL_CUDA(cudaStreamSynchronize(stream_));
    buf.copy_to(*trace_);
    trace_->grid = grid_.count();
  }

  // The rows that take halves and bfloat16 (AlgorithmRow::narrow): their first and only launch.
  template <class Probe>
  void launch_narrow(const In* in, T* out, Matrix m, Grid2 grid, dim3 block, const Probe& p) {
    switch (algo_) {
      case Algo::BatchedRowsVectorized:
        batched_rows_vectorized<T, Op><<<unsigned(grid.count()), block, block.x / 32 * sizeof(T), stream_>>>(
            in, out, m.cols, split_chunk_cols(m, grid.x), grid.x, p, out_->get(), tickets_ ? tickets_->get() : nullptr);
        break;
      case Algo::LanesPerRow:
        lanes_per_row<T, Op><<<dim3(unsigned(grid.x), unsigned(grid.y)), block, 0, stream_>>>(
            in, out, m.rows, m.cols, row_lanes(algo_, m.cols, sizeof(In)), p);
        break;
      default: throw std::invalid_argument("this matrix kernel takes no half or bfloat16 (AlgorithmRow::narrow)");
    }
    RL_CUDA(cudaGetLastError());
  }

  template <class Src, class Probe>
  void launch(const Src* in, T* out, Matrix m, Grid2 grid, dim3 block, const Probe& p) {
    if constexpr (kNarrowRun<T, Src>) {
      launch_narrow(in, out, m, grid, block, p);
    } else {
      launch_same(in, out, m, grid, block, p);
    }
  }

  template <class Probe>
  void launch_same(const T* in, T* out, Matrix m, Grid2 grid, dim3 block, const Probe& p) {
    const dim3 g(unsigned(grid.x), unsigned(grid.y));
    const std::size_t sh = std::size_t(block.x) * block.y * sizeof(T);
    switch (algo_) {
      case Algo::BatchedRows: batched_rows<T, Op><<<g, block, sh, stream_>>>(in, out, m.cols, p); break;
      case Algo::BatchedRowsShuffle:
        batched_rows_shuffle<T, Op><<<g, block, block.x / 32 * sizeof(T), stream_>>>(in, out, m.cols, p);
        break;
      case Algo::ColumnSums:
        column_sums<T, Op><<<g, block, sh, stream_>>>(in, out, m.rows, m.cols, column_chunk_rows(m, launch_.block, grid.y), p);
        break;
      case Algo::BatchedRowsSplit:  // a 1D grid: rows can pass gridDim.y's limit
        if (grid.x == 1) {  // one chunk a row is batched-rows, without the split's index arithmetic
          batched_rows<T, Op><<<unsigned(grid.count()), block, sh, stream_>>>(in, out, m.cols, p);
          break;
        }
        batched_rows_split<T, Op><<<unsigned(grid.count()), block, sh, stream_>>>(
            in, out, m.cols, split_chunk_cols(m, grid.x), grid.x, p);
        break;
      case Algo::BatchedRowsVectorized:  // a 1D grid, as batched-rows-split; one launch, phase 2 included
        batched_rows_vectorized<T, Op><<<unsigned(grid.count()), block, block.x / 32 * sizeof(T), stream_>>>(
            in, out, m.cols, split_chunk_cols(m, grid.x), grid.x, p, out_->get(), tickets_ ? tickets_->get() : nullptr);
        break;
      case Algo::ColumnSumsVectorized: {  // a cell a column a thread
        const std::size_t chunk = column_chunk_rows(m, launch_.block, grid.y);
        if (block.x * block.y <= unsigned(kDeepColumnBlock))
          column_sums_vectorized<T, Op, true><<<g, block, kVectorColumns * sh, stream_>>>(in, out, m.rows, m.cols, chunk, p);
        else
          column_sums_vectorized<T, Op, false><<<g, block, kVectorColumns * sh, stream_>>>(in, out, m.rows, m.cols, chunk, p);
        break;
      }
      case Algo::ColumnSumsNaive: column_sums_naive<T, Op><<<g, block, 0, stream_>>>(in, out, m.rows, m.cols, p); break;
      case Algo::Block2d: block_2d<T, Op><<<g, block, sh, stream_>>>(in, out, m.rows, m.cols, p); break;
      case Algo::WarpPerRow: warp_per_row<T, Op><<<g, block, 0, stream_>>>(in, out, m.rows, m.cols, p); break;
      case Algo::LanesPerRow:
        lanes_per_row<T, Op><<<g, block, 0, stream_>>>(in, out, m.rows, m.cols, row_lanes(algo_, m.cols), p);
        break;
      case Algo::ThreadPerRow: {
        const int w = row_tile_cols(m.cols, launch_.block, sizeof(T));
        thread_per_row<T, Op>
            <<<g, block, sh * std::size_t(row_tile_pitch(w)), stream_>>>(in, out, m.rows, m.cols, w, p);
        break;
      }
      default: throw std::invalid_argument("no matrix kernel for this algorithm");
    }
    RL_CUDA(cudaGetLastError());
  }

  Algo algo_;
  Launch launch_;
  RawTrace<T>* trace_;
  cudaStream_t stream_;
  Matrix m_;
  Grid2 grid_;
  std::size_t partial_count_;  // the first pass's results: the outputs, or the partials a second pass folds
  bool second_pass_;
  std::unique_ptr<DeviceArray<T>> out_, partials_;
  std::unique_ptr<DeviceArray<unsigned>> tickets_;

 public:
  MatrixReducer(const MatrixReducer&) = delete;
  MatrixReducer& operator=(const MatrixReducer&) = delete;
};

}  // namespace launch_detail
}  // namespace rl::kernels
