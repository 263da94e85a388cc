package dev.tessera.device.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads and writes a connected socket's file descriptor straight from and into Java heap
 * arrays, through critical FFM downcalls of read(2) and write(2) that may access the heap.
 * NIO cannot do this: handed a heap buffer it copies it through a temporary direct buffer,
 * which for a 1 MiB message costs about as much as the transfer itself on loopback. The
 * socket is non-blocking, so every call returns at once (the kernel copies what the socket
 * takes); a call holds the garbage collector only for that copy, and one call moves at most
 * {@value #MAX_PIECE} bytes to keep that short.
 *
 * <p>The descriptor is found, once per connection, among the process's open sockets
 * (/proc/self/fd) as the one whose local and peer addresses are the channel's: a TCP
 * connection is the only socket with that address pair. Linux only; where it is not found
 * (or with -Dtessera.tcp.rawHeapIo=false) the device copies through direct buffers.
 */
final class RawSocket {

    /**
     * Most bytes one read or write call moves (the collector waits for a critical call): 1 MiB,
     * about 0.2 ms on loopback. Fewer, larger calls are faster: on the Xeon VM, streaming 1 MiB
     * messages ran at 3.7-4.3 GB/s with 1 MiB calls, 3.0-3.3 with 256 KiB and 2.5 with 128
     * KiB, and the 1 MiB ping-pong took 150 us instead of 260 (4 MiB: 720 us instead of 1200).
     */
    static final int MAX_PIECE = 1024 * 1024;
    private static final int EINTR = 4;
    private static final int EAGAIN = 11;

    private static final MethodHandle READ;
    private static final MethodHandle WRITE;
    private static final MethodHandle GETSOCKNAME;
    private static final MethodHandle GETPEERNAME;
    private static final MethodHandle SETSOCKOPT;
    private static final MethodHandle GETSOCKOPT;
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_CONGESTION = 13;
    private static final VarHandle ERRNO;
    private static final long STATE_BYTES;
    private static final boolean AVAILABLE;

    static {
        MethodHandle read = null;
        MethodHandle write = null;
        MethodHandle sockName = null;
        MethodHandle peerName = null;
        MethodHandle setOpt = null;
        MethodHandle getOpt = null;
        VarHandle errno = null;
        long stateBytes = 0;
        boolean ok = false;
        try {
            if (System.getProperty("os.name", "").startsWith("Linux")
                    && !"false".equals(System.getProperty("tessera.tcp.rawHeapIo"))) {
                Linker linker = Linker.nativeLinker();
                StructLayout state = Linker.Option.captureStateLayout();
                errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
                stateBytes = state.byteSize();
                Linker.Option capture = Linker.Option.captureCallState("errno");
                Linker.Option heap = Linker.Option.critical(true);
                FunctionDescriptor io = FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG);
                read = linker.downcallHandle(linker.defaultLookup().find("read").orElseThrow(), io, capture, heap);
                write = linker.downcallHandle(linker.defaultLookup().find("write").orElseThrow(), io, capture, heap);
                FunctionDescriptor name = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.ADDRESS, ValueLayout.ADDRESS);
                sockName = linker.downcallHandle(linker.defaultLookup().find("getsockname").orElseThrow(), name);
                peerName = linker.downcallHandle(linker.defaultLookup().find("getpeername").orElseThrow(), name);
                setOpt = linker.downcallHandle(linker.defaultLookup().find("setsockopt").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
                getOpt = linker.downcallHandle(linker.defaultLookup().find("getsockopt").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.ADDRESS));
                ok = true;
            }
        } catch (RuntimeException | LinkageError e) {
            ok = false;
        }
        READ = read;
        WRITE = write;
        GETSOCKNAME = sockName;
        GETPEERNAME = peerName;
        SETSOCKOPT = setOpt;
        GETSOCKOPT = getOpt;
        ERRNO = errno;
        STATE_BYTES = stateBytes;
        AVAILABLE = ok;
    }

    private final int fd;
    private final SocketChannel channel;
    /**
     * Raw calls in flight; {@link #close} sets {@link #CLOSED} in it and waits for them to
     * end before the channel closes its descriptor, so a call never reaches a descriptor
     * number the process has reused for another file.
     */
    private final AtomicInteger inFlight = new AtomicInteger();
    private static final int CLOSED = 1 << 30;
    /** errno of the last call; one per direction, each used under its connection's read or write lock. */
    private final MemorySegment readState;
    private final MemorySegment writeState;

    private RawSocket(int fd, SocketChannel channel) {
        this.fd = fd;
        this.channel = channel;
        Arena arena = Arena.ofAuto();
        this.readState = arena.allocate(STATE_BYTES, 8);
        this.writeState = arena.allocate(STATE_BYTES, 8);
    }

    /** The raw descriptor of a connected channel, or null where it cannot be used (see the class comment). */
    static RawSocket of(SocketChannel channel) {
        if (!AVAILABLE) {
            return null;
        }
        try {
            InetSocketAddress local = (InetSocketAddress) channel.getLocalAddress();
            InetSocketAddress remote = (InetSocketAddress) channel.getRemoteAddress();
            if (local == null || remote == null) {
                return null;
            }
            int found = -1;
            try (Arena arena = Arena.ofConfined();
                 DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
                MemorySegment addr = arena.allocate(128, 8);
                MemorySegment len = arena.allocate(ValueLayout.JAVA_INT);
                for (Path p : fds) {
                    int fd;
                    try {
                        fd = Integer.parseInt(p.getFileName().toString());
                        if (!Files.readSymbolicLink(p).toString().startsWith("socket:")) {
                            continue;
                        }
                    } catch (NumberFormatException | IOException e) {
                        continue; // not a descriptor, or closed meanwhile
                    }
                    if (sameAddress(GETSOCKNAME, fd, addr, len, local) && sameAddress(GETPEERNAME, fd, addr, len, remote)) {
                        if (found >= 0) {
                            return null; // ambiguous: never guess
                        }
                        found = fd;
                    }
                }
            }
            return found < 0 ? null : new RawSocket(found, channel);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean sameAddress(MethodHandle call, int fd, MemorySegment addr, MemorySegment len,
                                       InetSocketAddress expected) {
        try {
            len.set(ValueLayout.JAVA_INT, 0, (int) addr.byteSize());
            int rc = (int) call.invokeExact(fd, addr, len);
            if (rc != 0) {
                return false;
            }
            int family = Short.toUnsignedInt(addr.get(ValueLayout.JAVA_SHORT, 0));
            int port = (Byte.toUnsignedInt(addr.get(ValueLayout.JAVA_BYTE, 2)) << 8)
                    | Byte.toUnsignedInt(addr.get(ValueLayout.JAVA_BYTE, 3));
            byte[] ip;
            if (family == 2) { // AF_INET: port at 2, address at 4
                ip = addr.asSlice(4, 4).toArray(ValueLayout.JAVA_BYTE);
            } else if (family == 10) { // AF_INET6: port at 2, address at 8 (Java's sockets are dual-stack)
                ip = addr.asSlice(8, 16).toArray(ValueLayout.JAVA_BYTE);
                if (isV4Mapped(ip)) {
                    ip = Arrays.copyOfRange(ip, 12, 16);
                }
            } else {
                return false;
            }
            return port == expected.getPort() && Arrays.equals(ip, expected.getAddress().getAddress());
        } catch (Throwable t) {
            return false;
        }
    }

    /** ::ffff:a.b.c.d, how a dual-stack socket reports an IPv4 peer. */
    private static boolean isV4Mapped(byte[] ip) {
        for (int i = 0; i < 10; i++) {
            if (ip[i] != 0) {
                return false;
            }
        }
        return ip[10] == (byte) 0xff && ip[11] == (byte) 0xff;
    }

    /**
     * Sets the connection's congestion control algorithm (TCP_CONGESTION, e.g. "cubic")
     * and returns the one in effect afterwards: the requested one, or the kernel's default
     * where the request was refused (an algorithm the kernel lacks or does not allow).
     */
    String congestionControl(String algorithm) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(algorithm);
            int rc = (int) SETSOCKOPT.invokeExact(fd, IPPROTO_TCP, TCP_CONGESTION, name, algorithm.length());
            MemorySegment now = arena.allocate(32);
            MemorySegment len = arena.allocate(ValueLayout.JAVA_INT);
            len.set(ValueLayout.JAVA_INT, 0, 32);
            if ((int) GETSOCKOPT.invokeExact(fd, IPPROTO_TCP, TCP_CONGESTION, now, len) != 0) {
                return rc == 0 ? algorithm : "unknown";
            }
            return now.getString(0);
        } catch (Throwable t) {
            return "unknown";
        }
    }

    /**
     * Writes up to {@value #MAX_PIECE} bytes of {@code seg} from {@code offset}; returns the
     * number written, 0 when the socket is full.
     */
    long write(MemorySegment seg, long offset) throws IOException {
        long n = Math.min(MAX_PIECE, seg.byteSize() - offset);
        MemorySegment from = seg.asSlice(offset, n);
        while (true) {
            long w;
            enter();
            try {
                w = (long) WRITE.invokeExact(writeState, fd, from, n);
            } catch (Throwable t) {
                throw new IOException("write(2) failed: " + t, t);
            } finally {
                inFlight.decrementAndGet();
            }
            if (w >= 0) {
                return w;
            }
            int err = (int) ERRNO.get(writeState, 0L);
            if (err == EAGAIN) {
                return 0;
            }
            if (err != EINTR) {
                throw new IOException("write to the socket failed (errno " + err + ")");
            }
        }
    }

    /**
     * Reads up to {@code max} (at most {@value #MAX_PIECE}) bytes into {@code seg} at
     * {@code offset}; returns the number read, 0 when nothing is there yet.
     */
    long read(MemorySegment seg, long offset, long max) throws IOException {
        long n = Math.min(MAX_PIECE, max);
        MemorySegment into = seg.asSlice(offset, n);
        while (true) {
            long r;
            enter();
            try {
                r = (long) READ.invokeExact(readState, fd, into, n);
            } catch (Throwable t) {
                throw new IOException("read(2) failed: " + t, t);
            } finally {
                inFlight.decrementAndGet();
            }
            if (r > 0) {
                return r;
            }
            if (r == 0) {
                throw new EOFException("connection closed by peer");
            }
            int err = (int) ERRNO.get(readState, 0L);
            if (err == EAGAIN) {
                return 0;
            }
            if (err != EINTR) {
                throw new IOException("read from the socket failed (errno " + err + ")");
            }
        }
    }

    private void enter() throws ClosedChannelException {
        if (inFlight.incrementAndGet() >= CLOSED || !channel.isOpen()) {
            inFlight.decrementAndGet();
            throw new ClosedChannelException();
        }
    }

    /**
     * No raw call starts after this returns, and none is still running: call it before the
     * channel is closed. Raw calls never block (the socket is non-blocking), so the wait is short.
     */
    void close() {
        int now;
        do {
            now = inFlight.get();
            if (now >= CLOSED) {
                return; // closed before
            }
        } while (!inFlight.compareAndSet(now, now + CLOSED));
        while (inFlight.get() != CLOSED) {
            Thread.onSpinWait();
        }
    }
}
