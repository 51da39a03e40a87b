/* suanli-inject-control.c — the control socket, its commands, and the writer thread
 *
 * One thread waits on the socket. A collector connects and sends one line:
 *   STATUS  → one line of JSON (pid, host, command, rank, local_rank, world_size, state, devices,
 *             namespace),
 *             then the connection closes;
 *   START   → "OK" and the capture stream (header, devices, records) until the collector sends
 *             STOP or goes away; or "ERROR why" when the source cannot start (CUPTI's words) or
 *             another collector is capturing;
 * anything else, or a line longer than SUANLI_INJECT_MAX_COMMAND, gets "ERROR …" and is closed.
 * While capturing, a writer thread sends what the queue holds without ever blocking: a collector
 * that does not keep up makes the queue fill and records drop (counted, and reported in the stream
 * as drop records); one that has gone ends the capture.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 64
#define DRAIN_MS    2000   /* on STOP, a collector that takes nothing of the queue for this long gets the rest sent blocking */
#define EXIT_MS     3000   /* all that the job's exit waits for a collector that keeps reading, queue and rest together */
#define EXIT_STALL_MS 500  /* at the job's exit, a collector that takes nothing for this long is given up on */
#define SEND_MS     2000   /* the longest one send of the rest waits for a collector that reads */
#define HEADER_MS   5000   /* how long a new collector has to take the capture's header */
#define COMMAND_MS  2000   /* a client has this long to send its whole command line */
#define LAUNCH_WAIT_MS 10000   /* a capture begun at launch waits this long for its collector */
#define JOIN_MS     1000   /* the job's exit waits this long for the control thread, whatever it is doing */
#define CLAIM_AT_EXIT_MS 3000   /* a job that exits before its launch collector came waits this long for it */

typedef struct
{
  SuanliInjectSource *source;
  SuanliInjectQueue   queue;
  int                 listen_fd;
  int                 wake[2];         /* a pipe: a byte in it wakes the control thread to end */
  int                 capture_fd;      /* the capturing collector's connection, or -1 */
  pthread_t           control_thread;
  int                 thread_started;  /* control_thread exists (in this process) */
  int                 exiting;         /* the job is exiting: end quickly (atomic) */
  int                 quiet;           /* SUANLI_QUIET=1, read once */
  int                 rank, local_rank, world_size;   /* read once: the job may change its environment */
  pthread_t           writer_thread;
  int                 writing;         /* the writer runs while this is 1 (atomic) */
  int                 collector_gone;  /* (atomic) */
  int                 state;           /* SuanliInjectState (atomic: the job's threads read it) */
  uint16_t            n_devices;
  SuanliCaptureDevice devices[MAX_DEVICES];
  char                path[108];
  uint64_t            dropped;         /* in the last capture */
  SuanliCaptureHeader header;          /* the capture's, from START (or from the launch) */
  int                 unclaimed;       /* begun at launch, no collector yet (control thread, and
                                        * InitializeInjection's before the thread runs) */
  uint64_t            claim_deadline;  /* suanli_inject_now_ms () by when a collector must come */
  int                 end_reason;      /* SuanliEndReason of the capture in progress */
  size_t              queue_capacity;  /* the record queue's, allocated at the first START */
  int                 default_depth;   /* launch stacks' frames: SUANLI_STACK_DEPTH, else the most */
  int                 stack_depth;     /* (atomic) this capture's: START's stack-depth=N, else the default */
  char                end_why[256];
} Control;

static Control control = { .listen_fd = -1, .wake = { -1, -1 }, .capture_fd = -1, .state = SUANLI_INJECT_INERT,
                           .default_depth = SUANLI_INJECT_MAX_STACK_DEPTH, .stack_depth = SUANLI_INJECT_MAX_STACK_DEPTH };

/* The flags the control thread, the writer and the job's threads share. */
#define GET(field)        __atomic_load_n (&control.field, __ATOMIC_ACQUIRE)
#define SET(field, value) __atomic_store_n (&control.field, (value), __ATOMIC_RELEASE)

/* One line on stderr, unless SUANLI_QUIET=1: the job's own output is not the place to chatter. */
void
suanli_inject_say (const char *format,
                   ...)
{
  const char *quiet = control.listen_fd >= 0 ? NULL : getenv ("SUANLI_QUIET");   /* read once, when started */
  char line[512];
  va_list args;

  if (control.quiet || (quiet != NULL && strcmp (quiet, "1") == 0))
    return;
  va_start (args, format);
  vsnprintf (line, sizeof line, format, args);
  va_end (args);
  fprintf (stderr, "suanli: %s\n", line);
}

/* ---- where the socket lives ------------------------------------------------------------------- */

/* 0 when @path is a folder of this user's that no one else may enter, else -1 with @error saying why. */
static int
is_private_folder (const char *path,
                   char       *error,
                   size_t      error_size)
{
  struct stat info;

  if (lstat (path, &info) != 0 || !S_ISDIR (info.st_mode))
    {
      snprintf (error, error_size, "%s is not a folder", path);
      return -1;
    }
  if (info.st_uid != getuid () || (info.st_mode & 077) != 0)
    {
      snprintf (error, error_size, "%s belongs to someone else or is open to others (mode %o)", path,
                (unsigned) (info.st_mode & 0777));
      return -1;
    }
  return 0;
}

/* Makes @path (0700) if it is missing; 0 when it is a folder of this user's that no one else
 * may enter, else -1 with @error saying why. */
static int
private_folder (const char *path,
                char       *error,
                size_t      error_size)
{
  if (mkdir (path, 0700) != 0 && errno != EEXIST)
    {
      snprintf (error, error_size, "cannot make %s: %s", path, strerror (errno));
      return -1;
    }
  return is_private_folder (path, error, error_size);
}

/* Writes @folder into @path, refusing one too long for the sockets it will hold. */
static int
fits (char       *path,
      size_t      size,
      const char *folder,
      char       *error,
      size_t      error_size)
{
  size_t length = strlen (folder);

  if (length >= size || length >= SUANLI_INJECT_SOCKET_DIR_SIZE)
    {
      snprintf (error, error_size, "the socket folder %.60s… is longer than a socket's path allows (%d bytes)", folder,
                SUANLI_INJECT_SOCKET_DIR_SIZE - 1);
      return -1;
    }
  memcpy (path, folder, length + 1);
  return 0;
}

/* $XDG_RUNTIME_DIR/suanli, or else $TMPDIR/suanli-UID (/tmp by default); when another user has
 * made that one first (anyone may create names in /tmp), $HOME/.suanli-sockets, which no one else
 * can. Each is made 0700 if missing and refused unless it is a folder of this user's that no one
 * else may enter; a folder too long for a socket's path is refused, never cut. The CLI, the agent
 * and the library all find the same one. */
int
suanli_inject_socket_dir (char   *path,
                          size_t  size,
                          char   *error,
                          size_t  error_size)
{
  const char *runtime = getenv ("XDG_RUNTIME_DIR");
  const char *temporary = getenv ("TMPDIR");
  const char *home = getenv ("HOME");
  char folder[4096], taken[400];

  if (runtime != NULL && runtime[0] == '/')
    {
      snprintf (folder, sizeof folder, "%s/suanli", runtime);
      return fits (path, size, folder, error, error_size) != 0 ? -1 : private_folder (path, error, error_size);
    }
  snprintf (folder, sizeof folder, "%s/suanli-%u", temporary != NULL && temporary[0] == '/' ? temporary : "/tmp",
            (unsigned) getuid ());
  if (fits (path, size, folder, error, error_size) != 0)
    return -1;
  if (private_folder (path, taken, sizeof taken) == 0)
    return 0;
  if (home == NULL || home[0] != '/')
    {
      snprintf (error, error_size, "%s", taken);
      return -1;
    }
  snprintf (folder, sizeof folder, "%s/.suanli-sockets", home);
  if (fits (path, size, folder, error, error_size) != 0 || private_folder (path, error, error_size) != 0)
    return -1;
  suanli_inject_say ("%s; the sockets are in %s instead", taken, path);
  return 0;
}

/* $HOME/.suanli-sockets, where suanli_inject_socket_dir() puts the sockets while another user
 * holds /tmp/suanli-UID: 0 when it is there, a private folder of this user's (it is never made
 * here), and not the folder in use now; else -1. Jobs started then stay there after that other
 * user's folder is gone, and suanli_inject_socket_dir() names /tmp/suanli-UID again: a listing
 * looks in both. */
int
suanli_inject_fallback_socket_dir (char   *path,
                                   size_t  size)
{
  const char *runtime = getenv ("XDG_RUNTIME_DIR");
  const char *home = getenv ("HOME");
  char folder[4096], current[SUANLI_INJECT_SOCKET_DIR_SIZE], ignored[400];

  if ((runtime != NULL && runtime[0] == '/') || home == NULL || home[0] != '/')
    return -1;
  snprintf (folder, sizeof folder, "%s/.suanli-sockets", home);
  if (fits (path, size, folder, ignored, sizeof ignored) != 0 || is_private_folder (path, ignored, sizeof ignored) != 0)
    return -1;
  if (suanli_inject_socket_dir (current, sizeof current, ignored, sizeof ignored) == 0 && strcmp (current, path) == 0)
    return -1;
  return 0;
}

int
suanli_inject_socket_path (char   *path,
                           size_t  size,
                           int     pid,
                           char   *error,
                           size_t  error_size)
{
  char dir[SUANLI_INJECT_SOCKET_DIR_SIZE];

  if (suanli_inject_socket_dir (dir, sizeof dir, error, error_size) != 0)
    return -1;
  if ((size_t) snprintf (path, size, "%s/%d.sock", dir, pid) >= size)
    {
      snprintf (error, error_size, "the socket's path under %s is too long", dir);
      return -1;
    }
  return 0;
}

/* ---- small I/O helpers --------------------------------------------------------------------------- */

static void
reply (int         fd,
       const char *text)
{
  size_t length = strlen (text);

  while (length > 0)
    {
      ssize_t sent = send (fd, text, length, MSG_NOSIGNAL);

      if (sent < 0 && errno == EINTR)
        continue;
      if (sent <= 0)
        return;
      text += sent;
      length -= (size_t) sent;
    }
}


/* Reads one line (without its newline) into @line, all of it within COMMAND_MS: a client that
 * dribbles bytes does not hold the control thread. Returns its length, -1 on error or when time is
 * up, -2 when it is longer than @size allows. */
static ssize_t
read_line (int     fd,
           char   *line,
           size_t  size)
{
  uint64_t deadline = suanli_inject_now_ms () + COMMAND_MS;
  size_t length = 0;

  for (;;)
    {
      struct pollfd readable = { fd, POLLIN, 0 };
      uint64_t now = suanli_inject_now_ms ();
      ssize_t got;
      char c;

      if (now >= deadline || poll (&readable, 1, (int) (deadline - now)) <= 0)
        return -1;
      got = recv (fd, &c, 1, MSG_DONTWAIT);
      if (got < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (got <= 0)
        return -1;
      if (c == '\n')
        break;
      if (length + 1 >= size)
        return -2;
      line[length++] = c;
    }
  if (length > 0 && line[length - 1] == '\r')
    length--;
  line[length] = '\0';
  return (ssize_t) length;
}

/* ---- the header ------------------------------------------------------------------------------- */

static int
env_int (const char *name)
{
  const char *text = getenv (name);
  char *end = NULL;
  long value;

  if (text == NULL || *text == '\0')
    return -1;
  value = strtol (text, &end, 10);
  return *end == '\0' && value >= 0 && value < (1L << 30) ? (int) value : -1;
}

static void
fill_header (SuanliCaptureHeader *header)
{
  struct timespec now;

  suanli_capture_init_header (header, 0);
  header->pid = (uint32_t) getpid ();
  header->rank = control.rank;
  header->local_rank = control.local_rank;
  header->world_size = control.world_size;
  gethostname (header->host, sizeof header->host - 1);
  clock_gettime (CLOCK_REALTIME, &now);
  header->start_realtime_ns = (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
}

/* ---- STATUS --------------------------------------------------------------------------------- */

/* The length of the UTF-8 character that @s starts (1 to 4), or 0 when its bytes are no valid
 * character (an overlong form, a surrogate, past U+10FFFF, a stray continuation byte, or cut). */
static size_t
utf8_sequence_length (const unsigned char *s)
{
  unsigned char lo = 0x80, hi = 0xbf;
  size_t n;

  if (s[0] < 0x80)
    return 1;
  if (s[0] >= 0xc2 && s[0] <= 0xdf)
    n = 2;
  else if (s[0] >= 0xe0 && s[0] <= 0xef)
    {
      n = 3;
      lo = s[0] == 0xe0 ? 0xa0 : 0x80;
      hi = s[0] == 0xed ? 0x9f : 0xbf;
    }
  else if (s[0] >= 0xf0 && s[0] <= 0xf4)
    {
      n = 4;
      lo = s[0] == 0xf0 ? 0x90 : 0x80;
      hi = s[0] == 0xf4 ? 0x8f : 0xbf;
    }
  else
    return 0;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xbf)
      return 0;
  return n;
}

/* Whether @s is the start of a character that the end of the text (its NUL) cut short. */
static int
utf8_is_cut (const unsigned char *s)
{
  size_t wanted = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 && s[0] <= 0xef ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
  size_t have = 1;

  while (have < wanted && s[have] >= 0x80 && s[have] <= 0xbf)
    have++;
  return wanted > 0 && have < wanted && s[have] == '\0';
}

/* Appends @text to @out as a JSON string's contents. */
static size_t
json_escape (char       *out,
             size_t      size,
             const char *text)
{
  size_t length = 0;

  /* Room for the longest thing one step writes ("\\u001f", or a 4-byte character) and the NUL. */
  while (*text != '\0' && length + 7 < size)
    {
      unsigned char c = (unsigned char) *text;
      size_t n = utf8_sequence_length ((const unsigned char *) text);

      if (n == 0 && utf8_is_cut ((const unsigned char *) text))
        break;   /* a character cut short where the text was cut: left out, not mangled */
      if (n == 0)
        {
          /* A byte that begins no character (a command line need not be UTF-8): U+FFFD. */
          memcpy (out + length, "\xef\xbf\xbd", 3);
          length += 3, text++;
        }
      else if (c == '"' || c == '\\')
        {
          out[length++] = '\\';
          out[length++] = (char) c;
          text++;
        }
      else if (c < 0x20)
        {
          length += (size_t) snprintf (out + length, size - length, "\\u%04x", c);
          text++;
        }
      else
        {
          memcpy (out + length, text, n);
          length += n, text += n;
        }
    }
  out[length] = '\0';
  return length;
}

/* The job's command line, its arguments joined by spaces. */
static void
read_command (char   *command,
              size_t  size)
{
  int fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  ssize_t got = fd >= 0 ? read (fd, command, size - 1) : -1;

  if (fd >= 0)
    close (fd);
  if (got <= 0)
    {
      command[0] = '\0';
      return;
    }
  for (ssize_t i = 0; i < got - 1; i++)
    if (command[i] == '\0')
      command[i] = ' ';
  command[got] = '\0';
}

/* The job's PID namespace ("pid:[4026531836]"): a job in a container shares its socket folder
 * with an agent outside, whose pids are not the job's. */
static void
read_pid_namespace (char   *name,
                    size_t  size)
{
  ssize_t got = readlink ("/proc/self/ns/pid", name, size - 1);

  name[got > 0 ? got : 0] = '\0';
}

static void
send_status (int fd)
{
  static const char * const states[] = { "idle", "capturing", "inert" };
  SuanliCaptureHeader header;
  char command[1024], escaped[2048], host[160], namespace[64], line[3200];
  uint16_t n_devices = control.n_devices;

  fill_header (&header);
  if (n_devices == 0 && control.source->devices != NULL)
    n_devices = control.source->devices (control.source, control.devices, MAX_DEVICES);
  read_command (command, sizeof command);
  json_escape (escaped, sizeof escaped, command);
  json_escape (host, sizeof host, header.host);
  read_pid_namespace (namespace, sizeof namespace);
  snprintf (line, sizeof line,
            "{\"pid\": %u, \"host\": \"%s\", \"command\": \"%s\", \"rank\": %d, \"local_rank\": %d, \"world_size\": %d, "
            "\"state\": \"%s\", \"devices\": %u, \"namespace\": \"%s\"}\n",
            header.pid, host, escaped, header.rank, header.local_rank, header.world_size, states[GET (state)],
            (unsigned) n_devices, namespace);
  reply (fd, line);
}

/* ---- the writer --------------------------------------------------------------------------------- */

/* Sends what the queue holds, never waiting on the collector: returns -1 when it has gone. */
static int
send_some (int fd)
{
  const uint8_t *data;
  size_t length;

  suanli_inject_queue_report_drops (&control.queue);
  length = suanli_inject_queue_peek (&control.queue, &data);
  while (length > 0)
    {
      ssize_t sent = send (fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);

      if (sent < 0 && errno == EINTR)
        continue;
      if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return 0;   /* the collector is behind: the queue keeps the rest, or drops what does not fit */
      if (sent <= 0)
        return -1;
      suanli_inject_queue_consume (&control.queue, (size_t) sent);
      length = suanli_inject_queue_peek (&control.queue, &data);
    }
  return 0;
}

static void *
writer_main (void *data)
{
  int fd = control.capture_fd;

  while (GET (writing))
    {
      struct timespec until;

      pthread_mutex_lock (&control.queue.lock);
      if (control.queue.used == 0 && control.queue.dropped == 0)
        {
          clock_gettime (CLOCK_REALTIME, &until);
          until.tv_nsec += 20 * 1000000;
          if (until.tv_nsec >= 1000000000)
            until.tv_sec++, until.tv_nsec -= 1000000000;
          pthread_cond_timedwait (&control.queue.ready, &control.queue.lock, &until);
        }
      pthread_mutex_unlock (&control.queue.lock);
      if (!GET (collector_gone) && send_some (fd) < 0)
        SET (collector_gone, 1);
      if (GET (collector_gone))
        {
          /* No one to send to: what comes is dropped until the capture ends. */
          const uint8_t *ignored;
          size_t length;

          while ((length = suanli_inject_queue_peek (&control.queue, &ignored)) > 0)
            suanli_inject_queue_consume (&control.queue, length);
          usleep (10000);
        }
      else
        {
          /* Waiting for the socket to take more, without spinning. */
          struct pollfd writable = { fd, POLLOUT, 0 };
          if (suanli_inject_queue_used (&control.queue) > 0)
            poll (&writable, 1, 20);
        }
    }
  return NULL;
}

/* ---- START and STOP ------------------------------------------------------------------------------ */

/* Sends @length bytes, all of them before @deadline (suanli_inject_now_ms () time) or fails, waiting at most
 * SEND_MS (EXIT_STALL_MS at the job's exit) for any one send to take something: a collector that
 * reads a little at a time cannot stretch the sending past the deadline, whatever each send waits. */
static int
send_before (int         fd,
             const void *data,
             size_t      length,
             uint64_t    deadline)
{
  const uint8_t *bytes = data;

  while (length > 0)
    {
      uint64_t now = suanli_inject_now_ms ();
      uint64_t most = GET (exiting) ? EXIT_STALL_MS : SEND_MS;
      uint64_t wait = deadline - now < most ? deadline - now : most;
      struct timeval timeout;
      ssize_t sent;

      if (now >= deadline)
        return -1;
      timeout.tv_sec = (time_t) (wait / 1000);
      timeout.tv_usec = (suseconds_t) (wait % 1000 * 1000);
      setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
      sent = send (fd, bytes, length, MSG_NOSIGNAL);
      if (sent < 0 && errno == EINTR)
        continue;
      if (sent <= 0)
        return -1;
      bytes += sent;
      length -= (size_t) sent;
    }
  return 0;
}

/* Sends all that the queue still holds (and a drop record, when there were drops), all of it
 * before @deadline. Returns 0 when all of it went. */
static int
finish_sending (int      fd,
                uint64_t deadline)
{
  const uint8_t *data;
  size_t length;

  suanli_inject_queue_report_drops (&control.queue);
  while ((length = suanli_inject_queue_peek (&control.queue, &data)) > 0)
    {
      if (send_before (fd, data, length, deadline) != 0)
        return -1;
      suanli_inject_queue_consume (&control.queue, length);
    }
  return 0;
}

/* Starts the source into the queue, with the header filled. Returns 0, or -1 with why in @error. */
static int
start_source (uint16_t  max_devices,
              char     *error,
              size_t    error_size)
{
  fill_header (&control.header);
  if (control.queue.data == NULL && suanli_inject_queue_init (&control.queue, control.queue_capacity) != 0)
    {
      snprintf (error, error_size, "no memory for the record queue (%zu bytes)", control.queue_capacity);
      return -1;
    }
  suanli_inject_queue_clear (&control.queue);
  suanli_inject_reset_string_ids ();
  error[0] = '\0';
  if (control.source->start (control.source, &control.queue, &control.header, control.devices, &control.n_devices,
                             max_devices, error, error_size) != 0)
    {
      if (error[0] == '\0')
        snprintf (error, error_size, "the record source did not start");
      return -1;
    }
  control.header.n_devices = control.n_devices;
  control.end_reason = SUANLI_END_STOPPED;
  control.end_why[0] = '\0';
  return 0;
}

/* Stops the source of a capture that never reached a collector. */
static void
stop_source_quietly (void)
{
  char why[256];
  int reason = SUANLI_END_STOPPED;

  control.source->stop (control.source, why, sizeof why, &reason);
}

/* Sends OK, the header and its devices to a new collector, and starts the writer. */
static void
hand_to_collector (int fd)
{
  uint64_t deadline = suanli_inject_now_ms () + HEADER_MS;

  /* The header goes first and whole; after it the writer never blocks (a stalled collector has 5 s). */
  if (send_before (fd, "OK\n", 3, deadline) != 0 || send_before (fd, &control.header, sizeof control.header, deadline) != 0 ||
      send_before (fd, control.devices, sizeof control.devices[0] * control.n_devices, deadline) != 0)
    {
      stop_source_quietly ();
      SET (state, SUANLI_INJECT_IDLE);
      close (fd);
      return;
    }
  control.capture_fd = fd;
  SET (collector_gone, 0);
  SET (writing, 1);
  if (pthread_create (&control.writer_thread, NULL, writer_main, NULL) != 0)
    {
      SET (writing, 0);
      SET (state, SUANLI_INJECT_IDLE);
      stop_source_quietly ();
      control.capture_fd = -1;
      close (fd);
    }
}

static void
start_capture (int fd,
               int stack_depth)
{
  char error[400], line[480];

  if (GET (state) == SUANLI_INJECT_CAPTURING && GET (unclaimed))
    {
      /* The capture begun at the launch: this collector is the one it waited for. The devices are
       * asked for now, with cuInit done. */
      SET (unclaimed, 0);
      if (stack_depth >= 0)
        SET (stack_depth, stack_depth);
      if (control.n_devices == 0 && control.source->devices != NULL)
        control.header.n_devices = control.n_devices = control.source->devices (control.source, control.devices, MAX_DEVICES);
      hand_to_collector (fd);
      return;
    }
  if (GET (state) == SUANLI_INJECT_CAPTURING)
    {
      reply (fd, "ERROR busy: another collector is capturing this job\n");
      close (fd);
      return;
    }
  /* Capturing from here on, before the source starts (the launches it sees at once take their
   * stacks into the queue) and before the collector hears OK (what it asks next must see it so). */
  SET (state, SUANLI_INJECT_CAPTURING);
  SET (stack_depth, stack_depth >= 0 ? stack_depth : control.default_depth);
  if (start_source (MAX_DEVICES, error, sizeof error) != 0)
    {
      SET (state, SUANLI_INJECT_IDLE);
      snprintf (line, sizeof line, "ERROR %s\n", error);
      reply (fd, line);
      suanli_inject_say ("cannot capture: %s", error);
      close (fd);
      return;
    }
  hand_to_collector (fd);
}

/**
 * start_at_launch:
 *
 * Inside InitializeInjection, before the job's first CUDA call returns, when `suanli-cli record --
 * COMMAND` launched the job (SUANLI_CAPTURE_FROM_LAUNCH holds the pid of that record, and it is
 * one of the job's ancestors: its child, or a process its command started however deep, as
 * torchrun's workers or a shell's): the capture starts here, so nothing the job does is missed,
 * and its records wait in the queue for the collector's START (LAUNCH_WAIT_MS at most; after that
 * the capture is dropped and the job is idle). The header says it holds the job from its start.
 */
static void
start_at_launch (void)
{
  char error[400];

  if (control.listen_fd < 0 || GET (state) != SUANLI_INJECT_IDLE)
    return;
  SET (unclaimed, 1);
  SET (state, SUANLI_INJECT_CAPTURING);
  /* No devices asked for: inside cuInit the driver's own calls are not to be made. */
  if (start_source (0, error, sizeof error) != 0)
    {
      SET (state, SUANLI_INJECT_IDLE);
      SET (unclaimed, 0);
      suanli_inject_say ("cannot capture from the launch: %s", error);
      return;
    }
  control.header.flags |= SUANLI_CAPTURE_FROM_LAUNCH;
  control.claim_deadline = suanli_inject_now_ms () + LAUNCH_WAIT_MS;
}

/* Whether process @ancestor is this process's parent, or its parent's, and so on up (a record that
 * is a subreaper stays the ancestor of what its command left behind). */
static bool
descends_from (int ancestor)
{
  int pid = (int) getppid ();

  for (int depth = 0; depth < 256 && pid > 1; depth++)
    {
      char path[64], stat[512], *close_paren;
      ssize_t length;
      int fd, parent = 0;

      if (pid == ancestor)
        return true;
      snprintf (path, sizeof path, "/proc/%d/stat", pid);
      if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
        return false;
      length = read (fd, stat, sizeof stat - 1);
      close (fd);
      if (length <= 0)
        return false;
      stat[length] = '\0';
      /* "pid (command) state ppid …": the command may hold spaces and parentheses. */
      if ((close_paren = strrchr (stat, ')')) == NULL || sscanf (close_paren + 1, " %*c %d", &parent) != 1)
        return false;
      pid = parent;
    }
  return false;
}

/* The end record, after a string record with why it ended, when there are words for it. */
static int
send_end (uint64_t records,
          uint64_t deadline)
{
  SuanliCaptureEnd end;
  uint8_t why[sizeof (SuanliCaptureString) + sizeof control.end_why + 8];
  size_t why_size = 0;

  memset (&end, 0, sizeof end);
  suanli_capture_init_record (&end.record, SUANLI_CAPTURE_END, sizeof end);
  end.records = records;
  end.dropped = control.dropped;
  end.reason = (uint32_t) control.end_reason;
  if (control.end_why[0] != '\0')
    {
      end.detail = suanli_inject_new_string_id ();
      why_size = suanli_capture_write_string (why, sizeof why, end.detail, control.end_why,
                                              (uint32_t) strlen (control.end_why));
    }
  if (why_size > 0 && send_before (control.capture_fd, why, why_size, deadline) != 0)
    return -1;
  return send_before (control.capture_fd, &end, sizeof end, deadline);
}

/* Waits while the writer empties the queue and the collector keeps taking it: until the queue is
 * empty, the collector is gone, it took nothing for @stall_ms, or @deadline came. */
static void
wait_for_writer (uint64_t stall_ms,
                 uint64_t deadline)
{
  size_t used, least = SIZE_MAX;
  uint64_t now, taken_at = suanli_inject_now_ms ();

  while (!GET (collector_gone) && (used = suanli_inject_queue_used (&control.queue)) > 0 &&
         (now = suanli_inject_now_ms ()) < deadline)
    {
      if (used < least)
        {
          least = used;
          taken_at = now;
        }
      else if (now - taken_at >= stall_ms)
        break;
      usleep (2000);
    }
}

/* Ends the capture: the source hands over what it held, the writer sends the rest and the end
 * record, and the connection closes. On STOP a collector that keeps reading gets all of it. At the
 * job's exit so does one that keeps reading, for EXIT_MS at most however slowly it reads (a bound
 * on each send alone let one that reads a little at a time hold the job); one that takes nothing
 * for EXIT_STALL_MS is given up on. (A fixed 300 ms for everything lost the end of a short job's
 * capture to a collector that was merely slow on a loaded machine.) */
static void
stop_capture (void)
{
  uint64_t lost, pushed, refused, start = suanli_inject_now_ms ();
  uint64_t deadline = GET (exiting) ? start + EXIT_MS : UINT64_MAX;
  struct timespec until;

  if (GET (state) != SUANLI_INJECT_CAPTURING)
    return;
  if (GET (exiting) && control.end_reason == SUANLI_END_STOPPED)
    control.end_reason = SUANLI_END_JOB_EXIT;
  /* What the source lost it has reported in the stream already, as drop records. */
  lost = control.source->stop (control.source, control.end_why, sizeof control.end_why, &control.end_reason);
  if (GET (unclaimed))
    {
      /* Begun at the launch, and no collector came: nobody to send to. */
      SET (unclaimed, 0);
      suanli_inject_queue_clear (&control.queue);
      SET (state, SUANLI_INJECT_IDLE);
      return;
    }
  wait_for_writer (GET (exiting) ? EXIT_STALL_MS : DRAIN_MS, deadline);
  SET (writing, 0);
  pthread_cond_signal (&control.queue.ready);
  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_sec += JOIN_MS / 1000 + 1;
  if (pthread_timedjoin_np (control.writer_thread, NULL, &until) != 0)
    pthread_detach (control.writer_thread);
  suanli_inject_queue_totals (&control.queue, &pushed, &refused);
  control.dropped = refused + lost;
  /* What is left goes with blocking sends, bounded in time (shortly at the job's exit). Only a
   * stream whose last record went whole gets the end record; otherwise it simply ends inside a
   * record, which the collector reports. */
  if (!GET (collector_gone) && finish_sending (control.capture_fd, deadline) == 0)
    send_end (pushed, deadline);
  shutdown (control.capture_fd, SHUT_RDWR);
  close (control.capture_fd);
  control.capture_fd = -1;
  SET (state, SUANLI_INJECT_IDLE);
}

/* ---- the control thread -------------------------------------------------------------------------- */

/* N in "@prefixN" (N from 0 to SUANLI_INJECT_MAX_STACK_DEPTH, nothing after it), else -1. */
static int
parse_depth (const char *text,
             const char *prefix)
{
  char *end = NULL;
  long depth;

  if (text == NULL || strncmp (text, prefix, strlen (prefix)) != 0)
    return -1;
  text += strlen (prefix);
  if (*text < '0' || *text > '9')
    return -1;
  depth = strtol (text, &end, 10);
  return *end == '\0' && depth >= 0 && depth <= SUANLI_INJECT_MAX_STACK_DEPTH ? (int) depth : -1;
}

/* How many frames each launch stack of the capture now takes (0: none). */
int
suanli_inject_control_stack_depth (void)
{
  return GET (stack_depth);
}

static void
serve (int fd)
{
  char line[SUANLI_INJECT_MAX_COMMAND];
  ssize_t length = read_line (fd, line, sizeof line);
  if (length == -2)
    reply (fd, "ERROR the command is too long\n");
  else if (length < 0)
    ;   /* nothing said, or not in time */
  else if (strcmp (line, "STATUS") == 0)
    send_status (fd);
  else if (strcmp (line, "START") == 0 || strncmp (line, "START ", 6) == 0)
    {
      int depth = -1;

      /* START's one option: how many frames a launch stack takes (0: none). */
      if (line[5] != '\0' && (depth = parse_depth (line + 6, "stack-depth=")) < 0)
        reply (fd, "ERROR START takes only stack-depth=N, N from 0 to 32\n");
      else
        {
          start_capture (fd, depth);
          return;   /* the connection is now the capture's, or closed */
        }
    }
  else
    reply (fd, "ERROR unknown command (STATUS, START, STOP)\n");
  close (fd);
}

/* The capturing collector said something (STOP), or hung up. */
static void
capture_readable (void)
{
  char line[SUANLI_INJECT_MAX_COMMAND];
  ssize_t got;

  if (GET (collector_gone))
    {
      stop_capture ();   /* the writer found it gone: nothing to read first */
      return;
    }
  got = recv (control.capture_fd, line, sizeof line - 1, MSG_DONTWAIT);
  if (got < 0 && (errno == EAGAIN || errno == EINTR))
    return;
  if (got <= 0)
    SET (collector_gone, 1);
  stop_capture ();
}

static void *
control_main (void *data)
{
  uint64_t last_flush = suanli_inject_now_ms ();

  for (;;)
    {
      struct pollfd fds[3] = {
        { control.wake[0], POLLIN, 0 },
        { control.listen_fd, POLLIN, 0 },
        { control.capture_fd, POLLIN, 0 },
      };
      int capturing = GET (state) == SUANLI_INJECT_CAPTURING;
      int ready = poll (fds, capturing ? 3 : 2, capturing ? SUANLI_INJECT_FLUSH_MS : -1);

      if (ready < 0 && errno != EINTR)
        break;
      if (fds[0].revents != 0)
        break;
      if (capturing && (fds[2].revents != 0 || GET (collector_gone)))
        capture_readable ();
      if (fds[1].revents & POLLIN)
        {
          int fd = accept4 (control.listen_fd, NULL, NULL, SOCK_CLOEXEC);

          if (fd >= 0)
            serve (fd);
        }
      if (GET (state) == SUANLI_INJECT_CAPTURING && suanli_inject_now_ms () - last_flush >= SUANLI_INJECT_FLUSH_MS)
        {
          int ended = control.source->flush (control.source, control.end_why, sizeof control.end_why);

          last_flush = suanli_inject_now_ms ();
          if (ended >= 0)
            {
              control.end_reason = ended;
              suanli_inject_say ("capture ended: %s", control.end_why);
              stop_capture ();
            }
          else if (GET (unclaimed) && last_flush > control.claim_deadline)
            {
              suanli_inject_say ("no collector came within %d s for the capture begun at the launch: the job is idle",
                                 LAUNCH_WAIT_MS / 1000);
              stop_capture ();
            }
        }
    }
  stop_capture ();
  return NULL;
}

int
suanli_inject_control_start (SuanliInjectSource *source,
                             size_t              queue_capacity)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  char error[256];

  if (control.listen_fd >= 0)
    return 0;   /* started already */
  /* The environment is read here, once: later the job's threads may change it under us. */
  control.quiet = getenv ("SUANLI_QUIET") != NULL && strcmp (getenv ("SUANLI_QUIET"), "1") == 0;
  {
    /* SUANLI_STACK_DEPTH=N: launch stacks of N frames, 0 for none (`record --stack-depth`). */
    const char *depth = getenv ("SUANLI_STACK_DEPTH");
    char prefixed[32];

    snprintf (prefixed, sizeof prefixed, "=%s", depth != NULL ? depth : "");
    control.default_depth = depth != NULL ? parse_depth (prefixed, "=") : -1;
    if (depth != NULL && control.default_depth < 0)
      suanli_inject_say ("SUANLI_STACK_DEPTH=%s is not a number from 0 to %d: stacks of %d frames", depth,
                         SUANLI_INJECT_MAX_STACK_DEPTH, SUANLI_INJECT_MAX_STACK_DEPTH);
    if (control.default_depth < 0)
      control.default_depth = SUANLI_INJECT_MAX_STACK_DEPTH;
    control.stack_depth = control.default_depth;
  }
  control.rank = env_int ("RANK");
  control.local_rank = env_int ("LOCAL_RANK");
  control.world_size = env_int ("WORLD_SIZE");
  if (suanli_inject_socket_path (control.path, sizeof control.path, (int) getpid (), error, sizeof error) != 0)
    {
      suanli_inject_say ("not attachable: %s", error);
      return -1;
    }
  control.source = source;
  control.queue_capacity = queue_capacity;   /* allocated at the first START: an idle job holds none */
  snprintf (address.sun_path, sizeof address.sun_path, "%s", control.path);
  unlink (control.path);   /* a socket left by an earlier process of this pid */
  control.listen_fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (control.listen_fd < 0 || pipe2 (control.wake, O_CLOEXEC) != 0 ||
      bind (control.listen_fd, (struct sockaddr *) &address, sizeof address) != 0 || chmod (control.path, 0600) != 0 ||
      listen (control.listen_fd, 8) != 0)
    {
      suanli_inject_say ("not attachable: cannot listen on %s: %s", control.path, strerror (errno));
      suanli_inject_control_stop ();
      return -1;
    }
  SET (state, SUANLI_INJECT_IDLE);
  {
    const char *launcher = getenv ("SUANLI_CAPTURE_FROM_LAUNCH");

    /* Before the control thread exists: no START can race it. */
    if (launcher != NULL && atoi (launcher) > 1 && descends_from (atoi (launcher)))
      start_at_launch ();
  }
  control.thread_started = pthread_create (&control.control_thread, NULL, control_main, NULL) == 0;
  if (!control.thread_started)
    {
      suanli_inject_say ("not attachable: cannot start the control thread");
      suanli_inject_control_stop ();
      return -1;
    }
  return 0;
}

/* Ends a capture in progress (the collector gets what was held and the end record), stops the
 * control thread and removes the socket. */
void
suanli_inject_control_stop (void)
{
  /* A short job launched by `record` may end before its collector has come: it waits a little. */
  for (uint64_t until = suanli_inject_now_ms () + CLAIM_AT_EXIT_MS;
       GET (unclaimed) && control.thread_started && suanli_inject_now_ms () < until;)
    usleep (2000);
  SET (exiting, 1);
  if (control.thread_started && control.wake[1] >= 0)
    {
      struct timespec until;

      clock_gettime (CLOCK_REALTIME, &until);
      until.tv_sec += (EXIT_MS + JOIN_MS) / 1000 + 1;
      /* Bounded: a control thread stuck in CUPTI (a flush that never returns) does not hold the exit. */
      if (write (control.wake[1], "x", 1) == 1 && pthread_timedjoin_np (control.control_thread, NULL, &until) != 0)
        {
          control.thread_started = 0;
          return;   /* its descriptors and queue stay: it may still be using them */
        }
    }
  control.thread_started = 0;
  if (control.listen_fd >= 0)
    {
      close (control.listen_fd);
      unlink (control.path);
    }
  for (int i = 0; i < 2; i++)
    if (control.wake[i] >= 0)
      close (control.wake[i]);
  if (control.queue.data != NULL)
    suanli_inject_queue_destroy (&control.queue);
  control.listen_fd = control.wake[0] = control.wake[1] = -1;
  SET (state, SUANLI_INJECT_INERT);
}

/* In a forked child: the parent's threads are not here, its socket and capture are not ours.
 * Closes the copies of their descriptors and goes back to not started. */
void
suanli_inject_control_forget (void)
{
  if (control.capture_fd >= 0)
    close (control.capture_fd);
  if (control.listen_fd >= 0)
    close (control.listen_fd);   /* not unlinked: the path is the parent's */
  for (int i = 0; i < 2; i++)
    if (control.wake[i] >= 0)
      close (control.wake[i]);
  control.capture_fd = control.listen_fd = control.wake[0] = control.wake[1] = -1;
  control.thread_started = 0;
  SET (writing, 0);
  SET (state, SUANLI_INJECT_INERT);
  /* The queue's memory stays allocated in the child: freeing it would race nothing, but its lock
   * may have been held at the fork. A new start makes a new one. */
  control.queue.data = NULL;
}

SuanliInjectState
suanli_inject_control_state (void)
{
  return (SuanliInjectState) GET (state);
}

/* Whether the job is exiting (the capture then ends in EXIT_MS, without ceremony). */
bool
suanli_inject_control_exiting (void)
{
  return GET (exiting) != 0;
}

SuanliInjectQueue *
suanli_inject_control_capture_queue (void)
{
  return GET (state) == SUANLI_INJECT_CAPTURING ? &control.queue : NULL;
}

/* Records lost in the last capture: refused by a full queue or lost by the source. */
uint64_t
suanli_inject_control_dropped (void)
{
  return control.dropped;
}
