"""TLS for the server and `online`: standard-library `ssl`, a self-signed certificate pinned on first use.

The server's certificate and key are `cert.pem` and `key.pem` in its data folder.  When they are not
there at the first start, the `openssl` command makes them (an EC P-256 key, ten years): Python's
`ssl` cannot make a certificate and the `cryptography` package is a heavy dependency for one file made
once.  An owner may put their own there instead (one signed by a CA, for instance): the client does
not look at who signed it, only at its fingerprint, which it pins (tui.core.server.pins).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import ssl
import subprocess
import tempfile
from pathlib import Path

CERT_NAME, KEY_NAME = "cert.pem", "key.pem"
OPENSSL_TIMEOUT_S = 60.0
DAYS = 3650


class TLSError(Exception):
    """No certificate to serve with; the message says why and what to do, in one line."""


def fingerprint(der: bytes) -> str:
    """The SHA-256 of a certificate, as `online` shows and pins it."""
    return "SHA256:" + hashlib.sha256(der).hexdigest()


def ensure_certificate(folder: Path) -> tuple[Path, Path]:
    """The certificate and key in `folder`, made with `openssl` if neither is there."""
    cert, key = folder / CERT_NAME, folder / KEY_NAME
    folder.mkdir(parents=True, exist_ok=True)
    if cert.exists() and key.exists():
        return cert, key
    if cert.exists() or key.exists():
        raise TLSError(f"{folder} holds only one of {CERT_NAME} and {KEY_NAME}: put back the other, or remove "
                       "both to make a new certificate (players who pinned the old one will be warned)")
    openssl = shutil.which("openssl")
    if openssl is None:
        raise TLSError(f"no certificate in {folder} and no `openssl` command to make one: install openssl, or "
                       f"put a certificate and its key there as {CERT_NAME} and {KEY_NAME}")
    with tempfile.TemporaryDirectory(dir=folder, prefix=".cert.") as tmp:
        new_cert, new_key = Path(tmp) / CERT_NAME, Path(tmp) / KEY_NAME
        argv = [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                "-nodes", "-days", str(DAYS), "-subj", "/CN=termarena server",
                "-keyout", str(new_key), "-out", str(new_cert)]
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=OPENSSL_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise TLSError(f"`openssl` could not make a certificate: {e}") from None
        if done.returncode != 0 or not new_cert.exists() or not new_key.exists():
            why = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no reason given"]
            raise TLSError(f"`openssl` could not make a certificate: {why[0][:200]}")
        os.chmod(new_key, 0o600)
        os.replace(new_key, key)  # the key first: a crash between the two leaves one file, which is refused
        os.replace(new_cert, cert)
    return cert, key


def server_context(folder: Path) -> tuple[ssl.SSLContext, str]:
    """The server's TLS context and its certificate's fingerprint (to tell players out of band)."""
    cert, key = ensure_certificate(folder)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
        der = ssl.PEM_cert_to_DER_cert(cert.read_text("ascii"))
    except (OSError, ssl.SSLError, ValueError, UnicodeDecodeError) as e:
        raise TLSError(f"cannot use {cert} and {key}: {e}") from None
    return context, fingerprint(der)


SERVER_TLS_BUFFER = 32 * 1024  # bytes: two TLS records, eight of the protocol's longest lines


def small_tls_buffers() -> None:
    """asyncio gives each TLS connection a 256 KiB read buffer, zero-filled, so resident: half a
    megabyte a game on a server, most of its memory (README "Server": measured).  A TLS record is at
    most 16 KiB and a line of the protocol 4 KiB, so the server's process uses 32 KiB (asyncio reads a
    record in pieces if it must).  Set once by `termarena server` for its own process only: it has no
    public setting, so this assigns the class attribute asyncio reads (SSLProtocol.max_size)."""
    import asyncio.sslproto

    if getattr(asyncio.sslproto.SSLProtocol, "max_size", 0) > SERVER_TLS_BUFFER:
        asyncio.sslproto.SSLProtocol.max_size = SERVER_TLS_BUFFER


def client_context() -> ssl.SSLContext:
    """Encrypts, and leaves the trust to the pin: a self-signed certificate has no authority to check."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context
