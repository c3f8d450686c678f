#pragma once
// libpq, PostgreSQL's C client (Debian libpq-dev; include path from pkg-config libpq).
#include <libpq-fe.h>
