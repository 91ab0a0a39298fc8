// The system's SQLite (Debian: libsqlite3-dev; macOS: the SDK's), for the embedded store.
#include <sqlite3.h>
