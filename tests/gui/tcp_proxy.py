"""A TCP relay between a client and the PostgreSQL server that a test can cut, silence
and restore, so a team library's server "goes away" without stopping the session's
server."""

from __future__ import annotations

import socket
import threading


class TcpProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._swallowing = False
        self._silent = threading.Event()
        self._lock = threading.Lock()

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        """Refuse new connections and cut the open ones (as a server going down does).
        Every socket is closed: one left open warns (ResourceWarning) when the garbage
        collector finds it, in whichever test runs then."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        self._cut()

    def black_hole(self) -> None:
        """Cut the open connections and answer new ones never (a host gone off the
        network: nothing refuses, nothing replies)."""
        self._swallowing = True
        self._cut()

    def go_silent(self) -> None:
        """Keep every connection open and relay nothing more, new ones included (a
        cable pulled, or a server's machine frozen: what is sent vanishes, no error)."""
        self._swallowing = True
        self._silent.set()

    def _cut(self) -> None:
        with self._lock:
            for connection in self._open:
                try:
                    connection.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                connection.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # stopped
            ends = [client]
            if not self._swallowing:
                ends.append(socket.create_connection(("localhost", self.target_port)))
            with self._lock:
                if self._listener is not listener:  # stopped meanwhile: cut these too
                    for end in ends:
                        end.close()
                    return
                self._open += ends
            if self._swallowing:
                continue
            server = ends[1]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(
                    target=_pipe, args=(source, sink, self._silent), daemon=True
                ).start()


def _pipe(source: socket.socket, sink: socket.socket, silent: threading.Event) -> None:
    try:
        while data := source.recv(65536):
            if not silent.is_set():
                sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()
