// BufferedSink: the base of the write decorators (BufferedWriteStream, the compressing and the
// encoding streams), and of a user's own: a class that turns bytes into other bytes on their way
// to a sink derives from it and implements `consume`. It owns the buffer that `put`, `write` and
// `reserve` fill inline, and the one drain that hands the filled part to `consume` (write it to
// the sink, compress it into the sink, encode it into the sink), with the rules every decorator
// follows: bytes a failed drain did not hand on stay in the buffer (`pending()`), the failure is
// sticky, `flush()` and `close()` drain and pass on, and a destructor that cannot write the
// buffer out reports to the lost-data handler. It is the write side's counterpart of the read
// decorators' window buffer.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>

#include <bufstream/write_stream.hpp>

namespace bufstream {

/// The base of the buffered write decorators: a buffer, and a drain into `consume`.
class BufferedSink : public WriteStream {
 public:
  /// The buffer size.
  std::size_t buffer_size() const noexcept { return capacity_; }
  /// Bytes written to this stream and not yet handed on (consumed). After a failure these
  /// are the bytes the drain did not hand on, and `position() - pending().size()` is what
  /// was handed on.
  std::string_view pending() const noexcept {
    return {start_, static_cast<std::size_t>(cursor_ - start_)};
  }
  /// The stream this one writes to.
  WriteStream& sink() noexcept { return *sink_; }

 protected:
  /// What `close()` does to the sink: close it, or close it only if owned (and flush it if
  /// borrowed).
  enum class SinkClose : bool { always, if_owned };

  /// Writes into `sink`, which must outlive this stream, through a buffer of `buffer_size`
  /// bytes (at least 1). A `write` of more than half of it is consumed from the caller's
  /// memory, after what is buffered.
  BufferedSink(WriteStream& sink, std::size_t buffer_size, SinkClose close);
  /// The same, owning `sink`.
  BufferedSink(std::unique_ptr<WriteStream> sink, std::size_t buffer_size, SinkClose close);

  /// Hands `bytes` (which begin at stream offset `start_position_`) on to the sink, adding to
  /// `taken` the bytes it has handed on as it goes. It may leave bytes at the end (an
  /// encoder's character cut by the buffer's end; fewer than the buffer holds), which wait
  /// in the buffer for more, unless `last` (no more bytes will come). On failure it
  /// throws `IoError` or `ParseError` with `taken` counting what was handed on before; the
  /// base keeps the rest and makes the failure sticky.
  virtual void consume(std::string_view bytes, std::size_t& taken, bool last) = 0;

  /// After `flush()` has drained the buffer, before the sink is flushed: makes what was
  /// consumed decodable from the sink (a compressor ends its block). May throw as `consume`.
  virtual void flush_consumed() {}

  /// After the last drain (at `close()`, at destruction, at a compressor's `finish()`):
  /// writes what ends the output (a compressor's trailer). May throw as `consume`.
  virtual void end_consumed() {}

  /// Drains (`consume`s) the buffer, keeping what it leaves at the buffer's front. Throws the
  /// sticky failure if it fails.
  void drain(bool last);

  /// Drains the last bytes, ends the output (`end_consumed`) and flushes the sink: the output
  /// is complete, and the stream still usable (writing on begins a new output).
  void finish_output();

  /// For the destructors of the final classes (a base destructor cannot call `consume`):
  /// drains the last bytes and ends the output into the sink (neither flushing nor closing
  /// it), reporting a failure no caller has seen to the lost-data handler. `what` names the
  /// stream.
  void finish_on_destruction(std::string_view what) noexcept;

  void write_slow(const char* data, std::size_t n) final;
  char* make_room(std::size_t n) final;
  void flush_sink() final;
  void close_sink() final;

 private:
  /// Moves the `kept` bytes at the end of the window to the buffer's front and opens the
  /// rest of the buffer (unless the stream is closed).
  void keep_last(std::size_t kept) noexcept;
  /// Runs `f` (a hook), making an `IoError` or `ParseError` it throws sticky.
  template <class F>
  void guarded(F f);
  /// Flushes the sink, making its failure sticky.
  void flush_sink_stream();

  std::unique_ptr<WriteStream> owned_;
  WriteStream* sink_;
  std::size_t capacity_;
  std::unique_ptr<char[]> buffer_;
  SinkClose close_;
};

}  // namespace bufstream
