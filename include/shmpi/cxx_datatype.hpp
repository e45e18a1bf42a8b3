// shmpi C++ API: which C++ types can travel, and as which MPI datatype.
//
// Any trivially copyable type can be sent (concept Transferable): its bytes
// are the message. Arithmetic types and std::complex<float|double|long
// double> map at compile time to their predefined MPI datatype (int ->
// MPI_INT, std::int64_t -> the predefined type of its underlying integer,
// bool -> MPI_CXX_BOOL, std::complex<double> -> MPI_CXX_DOUBLE_COMPLEX, ...), so reductions and MPI_Get_count work in
// elements. Every other Transferable type goes as MPI_BYTE with count
// size() * sizeof(T); it can be sent, received and probed, not reduced
// (concept Reducible).
//
// Buffers: a send buffer is any contiguous sized range of Transferable
// elements (std::span<const T>, std::span<T>, std::vector, std::array,
// std::string) or a single Transferable value; a receive buffer is the
// same with mutable elements, passed as an lvalue or as a view such as
// std::span<T> (a temporary vector would be filled and thrown away, so it
// is rejected).
#ifndef SHMPI_CXX_DATATYPE_HPP
#define SHMPI_CXX_DATATYPE_HPP

#include <shmpi/cxx_error.hpp>

#include <climits>
#include <complex>
#include <cstddef>
#include <memory>
#include <ranges>
#include <type_traits>

namespace shmpi {

template <class T>
concept Transferable = std::is_trivially_copyable_v<std::remove_cv_t<T>>;

// datatype_traits<T>::value is the predefined MPI datatype of T, for the
// types that have one; `predefined` says whether T does.
template <class T>
struct datatype_traits {
  static constexpr bool predefined = false;
};

template <MPI_Datatype Handle>
struct predefined_as {
  static constexpr bool predefined = true;
  static constexpr MPI_Datatype value = Handle;
};

// The fixed-width integers (std::int8_t ... std::uint64_t) are aliases of
// these, so they are covered; char8_t/char16_t/char32_t go as bytes.
template <> struct datatype_traits<char> : predefined_as<MPI_CHAR> {};
template <> struct datatype_traits<signed char> : predefined_as<MPI_SIGNED_CHAR> {};
template <> struct datatype_traits<unsigned char> : predefined_as<MPI_UNSIGNED_CHAR> {};
template <> struct datatype_traits<wchar_t> : predefined_as<MPI_WCHAR> {};
template <> struct datatype_traits<short> : predefined_as<MPI_SHORT> {};
template <> struct datatype_traits<unsigned short> : predefined_as<MPI_UNSIGNED_SHORT> {};
template <> struct datatype_traits<int> : predefined_as<MPI_INT> {};
template <> struct datatype_traits<unsigned> : predefined_as<MPI_UNSIGNED> {};
template <> struct datatype_traits<long> : predefined_as<MPI_LONG> {};
template <> struct datatype_traits<unsigned long> : predefined_as<MPI_UNSIGNED_LONG> {};
template <> struct datatype_traits<long long> : predefined_as<MPI_LONG_LONG> {};
template <> struct datatype_traits<unsigned long long> : predefined_as<MPI_UNSIGNED_LONG_LONG> {};
template <> struct datatype_traits<float> : predefined_as<MPI_FLOAT> {};
template <> struct datatype_traits<double> : predefined_as<MPI_DOUBLE> {};
template <> struct datatype_traits<long double> : predefined_as<MPI_LONG_DOUBLE> {};
template <>
struct datatype_traits<bool> : predefined_as<MPI_CXX_BOOL> {};
template <>
struct datatype_traits<std::complex<float>> : predefined_as<MPI_CXX_FLOAT_COMPLEX> {};
template <>
struct datatype_traits<std::complex<double>> : predefined_as<MPI_CXX_DOUBLE_COMPLEX> {};
template <>
struct datatype_traits<std::complex<long double>> : predefined_as<MPI_CXX_LONG_DOUBLE_COMPLEX> {};

// Types with a predefined MPI datatype: the ones reductions accept.
template <class T>
concept Reducible = Transferable<T> && datatype_traits<std::remove_cv_t<T>>::predefined;

// The datatype a T travels as: its predefined type, or MPI_BYTE.
template <Transferable T>
inline constexpr MPI_Datatype datatype_of = [] {
  if constexpr (Reducible<T>) {
    return datatype_traits<std::remove_cv_t<T>>::value;
  } else {
    return MPI_BYTE;
  }
}();

// Number of MPI elements one T is: 1, or sizeof(T) bytes.
template <Transferable T>
inline constexpr std::size_t elements_per_value = Reducible<T> ? 1 : sizeof(T);

template <class R>
concept ContiguousBuffer = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
                           Transferable<std::ranges::range_value_t<R>>;

// What send-side calls accept (see the header comment).
template <class B>
concept SendBuffer = ContiguousBuffer<std::remove_cvref_t<B>> ||
                     (Transferable<std::remove_cvref_t<B>> &&
                      !std::ranges::range<std::remove_cvref_t<B>>);

// What receive-side calls accept: mutable elements, not a temporary owner.
template <class B>
concept RecvBuffer =
    (ContiguousBuffer<std::remove_reference_t<B>> && std::ranges::borrowed_range<B> &&
     !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<B>>>) ||
    (std::is_lvalue_reference_v<B> && !std::is_const_v<std::remove_reference_t<B>> &&
     Transferable<std::remove_reference_t<B>> &&
     !std::ranges::range<std::remove_reference_t<B>>);

// Nonblocking sends keep reading the buffer after the call returns, so a
// temporary cannot be one: an lvalue or a view (std::span) only.
template <class B>
concept PersistentSendBuffer =
    SendBuffer<B> && (std::is_lvalue_reference_v<B> || std::ranges::borrowed_range<B>);

namespace detail {

// The element type of a buffer: range_value_t of a range, else the type.
template <class B>
struct buffer_value {
  using type = std::remove_cv_t<B>;
};
template <std::ranges::range B>
struct buffer_value<B> {
  using type = std::ranges::range_value_t<B>;
};
template <class B>
using buffer_value_t = typename buffer_value<std::remove_cvref_t<B>>::type;

// A buffer as the C API sees it.
template <class Pointer>
struct CBuffer {
  Pointer data;
  int count;
  MPI_Datatype type;
};

template <Transferable T>
int element_count(std::size_t values, const char* call) {
  constexpr std::size_t kMaxValues = static_cast<std::size_t>(INT_MAX) / elements_per_value<T>;
  if (values > kMaxValues) raise(MPI_ERR_COUNT, call, "buffer exceeds INT_MAX elements");
  return static_cast<int>(values * elements_per_value<T>);
}

template <class B>
auto send_buffer(const B& b, const char* call) -> CBuffer<const void*> {
  if constexpr (std::ranges::range<B>) {
    using T = std::ranges::range_value_t<B>;
    return {std::ranges::data(b), element_count<T>(std::ranges::size(b), call), datatype_of<T>};
  } else {
    return {std::addressof(b), element_count<B>(1, call), datatype_of<B>};
  }
}

template <class B>
auto recv_buffer(B&& b, const char* call) -> CBuffer<void*> {
  using Plain = std::remove_cvref_t<B>;
  if constexpr (std::ranges::range<Plain>) {
    using T = std::ranges::range_value_t<Plain>;
    return {std::ranges::data(b), element_count<T>(std::ranges::size(b), call), datatype_of<T>};
  } else {
    return {std::addressof(b), element_count<Plain>(1, call), datatype_of<Plain>};
  }
}

}  // namespace detail
}  // namespace shmpi

#endif  // SHMPI_CXX_DATATYPE_HPP
