// A VFS for the embedded store that writes each WAL commit with one write call (see wal_buffer.c).
#ifndef COUNTERSIGN_SQLITE_WAL_H
#define COUNTERSIGN_SQLITE_WAL_H

#include <stdint.h>

// The VFS's name, for sqlite3_open_v2.
#define COUNTERSIGN_WAL_VFS_NAME "countersign-wal"

// Registers the VFS (not as the default) over the platform's default one. Safe to call more than
// once; returns SQLITE_OK once it is registered.
int countersign_wal_vfs_register(void);

// Since the process started: write calls SQLite made on WAL files opened through the VFS, and
// write calls the VFS made on the files for them.
uint64_t countersign_wal_vfs_requested_writes(void);
uint64_t countersign_wal_vfs_file_writes(void);

#endif
