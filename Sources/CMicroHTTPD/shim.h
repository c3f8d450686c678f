#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>
// Variadic libmicrohttpd functions are unavailable in Swift: wrap the calls we make.

/// Starts a daemon with the options arcloud uses. `addr` may be NULL (all interfaces on
/// `port`); when given it is copied by MHD before this returns. Options left 0 (or NULL)
/// are not set. `notify_connection_cls`, like the other closures, is not owned by MHD.
/// Returns NULL on failure (port in use, bad options). The caller owns the daemon and
/// must pass it to MHD_stop_daemon. `handler_cls` and `completed_cls` are not owned by MHD:
/// they must stay valid until MHD_stop_daemon returns.
static inline struct MHD_Daemon *cmhd_start_daemon(
    unsigned int flags, uint16_t port, const struct sockaddr *addr,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    unsigned int thread_pool_size, unsigned int connection_limit,
    unsigned int connection_timeout_seconds, size_t connection_memory_limit,
    unsigned int per_ip_connection_limit,
    MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls,
    MHD_LogCallback logger, void *logger_cls)
{
    struct MHD_OptionItem ops[13];
    int n = 0;
    // First, so that no message goes to MHD's own stderr logger (MHD_USE_ERROR_LOG is
    // needed for messages to be produced at all).
    if (logger) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t) logger, logger_cls };
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls };
    if (addr) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *) addr };
    if (thread_pool_size > 1) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size, NULL };
    if (connection_limit) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL };
    if (connection_timeout_seconds) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds, NULL };
    if (connection_memory_limit) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) connection_memory_limit, NULL };
    if (per_ip_connection_limit) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit, NULL };
    if (notify_connection) ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t) notify_connection, notify_connection_cls };
    ops[n++] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

/// The port the daemon listens on (useful after binding port 0), or 0 if unknown.
static inline uint16_t cmhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/// The number of open connections, or 0 if unknown.
static inline unsigned int cmhd_current_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

/// The socket of a connection (for a deadline enforced from another thread with
/// shutdown(2): MHD then sees the connection end and closes it itself), or -1.
static inline int cmhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// The pointer stored through MHD_OPTION_NOTIFY_CONNECTION's `socket_context` (borrowed), or NULL.
static inline void *cmhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The client's address (borrowed from MHD, valid while the connection lives), or NULL.
static inline const struct sockaddr *cmhd_client_address(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}
