// cuprobe/core/box.cuh: two small owning holders and a keyed slot, so that the headers need
// none of <memory>, <functional> and <map> (each costs every translation unit that includes
// cuprobe parse time, in all three of nvcc's front ends: scripts/compile-times.sh).
//
//   cuprobe::box<std::vector<int>> b(std::vector<int>{1, 2});  // one T on the heap
//   auto c = b;                                                  // copies the T
//   cuprobe::callback<void(int)> f = [](int x) { std::printf("%d\n", x); };
//   if (f) f(3);                                                 // empty: false
//   ++cuprobe::slot(kv, "a");  // kv: a vector of (string, int) pairs; "a" found, else appended
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe {

/// One T on the heap, or none: moves hand it over; copies (only where T copies) copy the T.
template <class T>
class box {
 public:
  box() = default;
  explicit box(T v) : p_(new T(std::move(v))) {}            ///< Holds `v`.
  box(const box& o) : p_(o.p_ ? new T(*o.p_) : nullptr) {}  ///< Copies the T, if any.
  box(box&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }      ///< Takes the T; `o` holds none.
  box& operator=(box o) noexcept {                          ///< Copies or takes `o`'s T.
    std::swap(p_, o.p_);
    return *this;
  }
  ~box() { delete p_; }
  /// Replaces the T by one made of `args` (the old one goes first: none if that throws).
  template <class... Args>
  T& emplace(Args&&... args) {
    delete p_;
    p_ = nullptr;
    return *(p_ = new T(std::forward<Args>(args)...));
  }
  explicit operator bool() const noexcept { return p_ != nullptr; }  ///< it holds a T
  T* get() const noexcept { return p_; }                             ///< the T, or nullptr
  T* operator->() const noexcept { return p_; }                      ///< the T (it must hold one)
  T& operator*() const noexcept { return *p_; }                      ///< the T (it must hold one)

 private:
  T* p_ = nullptr;
};

template <class Signature>
class callback;

/// A copyable callable of one signature, or none (what run_options' hooks hold): any function
/// object, lambda or function pointer that can be called so converts to it.
template <class R, class... Args>
class callback<R(Args...)> {
  struct base {
    virtual ~base() = default;
    virtual R call(Args... a) = 0;
    virtual base* clone() const = 0;
  };
  template <class F>
  struct holder final : base {
    F f;
    explicit holder(F g) : f(std::move(g)) {}
    R call(Args... a) override { return static_cast<R>(f(std::forward<Args>(a)...)); }
    base* clone() const override { return new holder(f); }
  };

 public:
  callback() = default;
  callback(std::nullptr_t) {}  // NOLINT: `= nullptr`, an empty callback
  template <class F, std::enable_if_t<!std::is_same_v<std::decay_t<F>, callback> &&
                                          std::is_invocable_r_v<R, std::decay_t<F>&, Args...>,
                                      int> = 0>
  callback(F f) {  // NOLINT: converts as std::function; a null or empty `f` gives an empty one
    using D = std::decay_t<F>;
    if constexpr (std::is_pointer_v<D> ||
                  (std::is_constructible_v<bool, const D&> && !std::is_convertible_v<D, bool>))
      if (!static_cast<bool>(f)) return;
    p_ = new holder<D>(std::move(f));
  }
  callback(const callback& o) : p_(o.p_ ? o.p_->clone() : nullptr) {}
  callback(callback&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  callback& operator=(callback o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~callback() { delete p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }  ///< it holds a callable
  /// Calls it; cuprobe::error when empty.
  R operator()(Args... a) const {
    require(p_ != nullptr, "cuprobe::callback: called while empty");
    return p_->call(std::forward<Args>(a)...);
  }

 private:
  base* p_ = nullptr;
};

/// The value of `key` in `kv` (pairs in insertion order), appended value-initialised when
/// missing: a std::map's operator[] for the few keys a header keeps.
template <class K, class V, class Key>
V& slot(std::vector<std::pair<K, V>>& kv, const Key& key) {
  for (auto& [k, v] : kv)
    if (k == key) return v;
  return kv.emplace_back(K(key), V{}).second;
}

}  // namespace cuprobe
