// The CPU model of the matrix family, block by block, recording as the probes do: its class;
// the members live beside the kernel files they model (matrix_model.cpp, short_rows_model.h, flat_rows_model.h).
#pragma once

#include "block_model.h"

namespace rl::model::detail {

// The matrix family (kernels/matrix.cuh), block by block, recording as the probes do.
template <class T, class Op>
struct MatrixModel {
  Algo algo;
  kernels::Matrix m;
  int B;
  kernels::Grid2 grid;
  std::size_t elem = sizeof(T);  // the input element's bytes (2 for halves added in float): the loads' width

  static T id() { return Op::template identity<T>(); }
  // The catalog row whose columns choose this model's behaviour, looked up here alone.
  const kernels::AlgorithmRow& rules() const { return kernels::row(algo); }
  const T* row_of(const T* in, std::size_t r) const { return in + r * m.cols; }

  // Thread t's fold over the elements it reads, in its loop's order; loads recorded.
  template <class Index>
  T fold(const T* in, int t, const Rec<T>& rec, Index indices) const {
    T v = id();
    int slot = 0;
    indices([&](std::size_t i) {
      v = Op{}(v, in[i]);
      rec.load(0, t, slot++, i);
    });
    return v;
  }

  struct TileAt {
    std::size_t r0, c0;
    int rows, w, pitch;
  };
  using FlatTile = kernels::FlatTile;

  // matrix_model.cpp: kernels/matrix.cuh
  T batched_row(const T* in, std::size_t r, const Rec<T>& rec, std::size_t begin = 0,
                std::size_t end = std::size_t(-1)) const;
  T vector_chunk(const T* in, std::size_t r, const Rec<T>& rec, std::size_t c, std::size_t w) const;
  T row_tree(std::vector<T>& v, const Rec<T>& rec) const;
  std::vector<T> fold_columns(const T* in, int t, const Rec<T>& rec, const std::vector<std::size_t>& cols,
                              std::size_t r0, std::size_t by, std::size_t last) const;
  void column_block(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const;
  T naive_column(const T* in, std::size_t col, int t, const Rec<T>& rec) const;
  T block_2d(const T* in, std::size_t b, const Rec<T>& rec) const;
  std::vector<T> first_pass(const T* in, int traced, RawTrace<T>* raw) const;
  // short_rows_model.h: kernels/short_rows.cuh; flat_rows_model.h: kernels/flat_rows.cuh
  std::vector<std::vector<T>> segment_group(const T* in, int w, std::size_t row0, const Rec<T>& rec,
                                            std::vector<int>& slot) const;
  void row_segments(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const;
  std::vector<std::vector<T>> segment_shuffles(std::vector<T> v, int lanes) const;
  void row_tile(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const;
  void copy_tile(const T* in, TileAt a, bool first, std::vector<int>& slot, const Rec<T>& rec) const;
  void flat_rows(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const;
  void flat_first_tile(const T* in, std::size_t t0, std::size_t copy_end, int to, const Rec<T>& rec) const;
  std::vector<std::vector<T>> flat_warp(const T* tile, const FlatTile& at, int first) const;
  void flat_record(int w, const FlatTile& at, const std::vector<std::vector<T>>& steps,
                   std::vector<std::vector<T>>& lanes_at, const Rec<T>& rec) const;
};

}  // namespace rl::model::detail
