// A program as a user writes it against an installed bufstream: write through a buffered
// descriptor stream, read back, check.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/fd_read_stream.hpp>
#include <bufstream/fd_write_stream.hpp>

int main() {
  char path[] = "/tmp/bufstream-consumer-XXXXXX";
  const int fd = ::mkstemp(path);
  if (fd < 0) return 2;
  ::close(fd);
  {
    bufstream::FdWriteStream file(path);
    bufstream::BufferedWriteStream out(file);
    for (int i = 1; i <= 1000; ++i) {
      out.print(i);
      out.lf();
    }
    out.close();
  }
  long sum = 0;
  {
    bufstream::FdReadStream file(path);
    bufstream::BufferedReadStream in(file);
    while (auto line = in.next_line()) sum += std::stol(*line);
  }
  ::unlink(path);
  if (sum != 500500) {
    std::fprintf(stderr, "consumer: expected 500500, got %ld\n", sum);
    return 1;
  }
  std::puts("consumer: ok");
  return 0;
}
