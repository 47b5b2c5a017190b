//! MCP over this process's stdin and stdout (`charon mcp --stdio`).

use super::McpServer;

/// Serves MCP over this process's stdin and stdout until the client disconnects.
///
/// Nothing but JSON-RPC may reach stdout, so the protocol gets a private copy of the
/// original stdout and file descriptor 1 is pointed at stderr: anything else that
/// writes to "stdout" in this process (a library, a stray `println!`) lands in the
/// log instead. The knowledge base's own output never gets here at all: it runs in
/// worker processes whose output is captured.
pub async fn serve_stdio(server: McpServer) -> std::io::Result<()> {
    let server = server.ordered();
    use rmcp::ServiceExt as _;
    // SAFETY: dup/dup2 on this process's standard descriptors.
    let proto_fd = unsafe { libc::dup(1) };
    if proto_fd < 0 || unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: proto_fd is a fresh descriptor that nothing else owns.
    let proto = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(proto_fd) };
    let proto = tokio::fs::File::from_std(proto);
    // Each message, one line, passes `crate::json`'s marking on the way in and its
    // unmarking on the way out, so numbers rmcp's JSON would change stay exact and
    // answers keep their declared key order.
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let inbound = tokio::spawn(relay(tokio::io::stdin(), to_server, crate::json::mark));
    let outbound = tokio::spawn(relay(from_server, proto, crate::json::unmark));
    let running = server
        .serve((server_in, server_out))
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    inbound.abort();
    // The server is gone: its side of the pipe is closed, the last lines flush.
    outbound.await.map_err(std::io::Error::other)??;
    Ok(())
}

/// Copies lines from `from` to `to`, each rewritten by `rewrite`, until `from` ends.
async fn relay<R, W>(
    from: R,
    mut to: W,
    rewrite: fn(&[u8]) -> std::borrow::Cow<'_, [u8]>,
) -> std::io::Result<()>
where
    R: tokio::io::AsyncRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _};
    let mut from = tokio::io::BufReader::new(from);
    let mut line = Vec::new();
    loop {
        line.clear();
        if from.read_until(b'\n', &mut line).await? == 0 {
            return to.shutdown().await;
        }
        to.write_all(&rewrite(&line)).await?;
        to.flush().await?;
    }
}
