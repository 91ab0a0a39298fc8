// A VFS over the platform's default one that gathers the writes SQLite makes to a WAL file and
// hands them to the file in one call.
//
// SQLite writes a commit's frames one after another at the WAL's end, each with two calls (the
// frame's 24-byte header, then the page), then syncs the file. Through this VFS those writes are
// copied into a buffer while they extend it, and the buffer is written with one call before
// anything that needs the file as SQLite left it: the sync, a read, the size, a truncation, a file
// control or the close. A write elsewhere (SQLite rewriting a frame of the transaction in progress)
// lands in the buffer when it falls inside it, and otherwise writes the buffer out first.
//
// Why it is safe: other connections read a frame only once the wal-index says it is committed, and
// SQLite updates the wal-index after writing the commit's last frame (and, with `synchronous=FULL`,
// after syncing). The VFS writes the buffer out as soon as that frame's page is in it: a frame
// header whose commit field (bytes 4-7, the database's size in pages after the commit) is not zero
// marks the commit's last frame, whatever the connection's `synchronous`. A crash before the sync
// loses what it would have lost anyway: the commit had not returned. Every other file (the database,
// its shared memory) is the default VFS's, untouched.
#include "CSQLiteWAL.h"

#include <sqlite3.h>
#include <string.h>

typedef struct WALFile {
    sqlite3_file base;
    sqlite3_file *real;
    unsigned char *buffer;
    sqlite3_int64 start;
    int length;
    // The last write was a commit frame's header: the next one, its page, ends the commit.
    int commitHeaderWritten;
} WALFile;

enum { frameHeaderSize = 24 };

// 120 KiB, about 30 frames of 4 KiB: the default VFS writes at most 128 KiB less a byte a call
// (its `seekAndWrite` keeps the low 17 bits of the length), so a commit of more frames goes out in
// several writes. Allocated at a file's first write: a reader's WAL file is never written.
static const int bufferCapacity = 120 * 1024;
#define ROUND8(n) (((n) + 7) & ~7)

static sqlite3_vfs vfs;
static uint64_t requestedWrites;
static uint64_t fileWrites;

static sqlite3_vfs *realVFS(void) { return (sqlite3_vfs *)vfs.pAppData; }

static int flush(WALFile *file) {
    if (file->length == 0) return SQLITE_OK;
    __atomic_fetch_add(&fileWrites, 1, __ATOMIC_RELAXED);
    int rc = file->real->pMethods->xWrite(file->real, file->buffer, file->length, file->start);
    // On failure SQLite rolls the transaction back; frames past the committed end are ignored.
    file->length = 0;
    return rc;
}

static int walClose(sqlite3_file *base) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    int closed = file->real->pMethods->xClose(file->real);
    sqlite3_free(file->buffer);
    file->buffer = 0;
    return rc != SQLITE_OK ? rc : closed;
}

static int walRead(sqlite3_file *base, void *out, int amount, sqlite3_int64 offset) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xRead(file->real, out, amount, offset);
}

static int buffered(WALFile *file, const void *data, int amount, sqlite3_int64 offset);

static int walWrite(sqlite3_file *base, const void *data, int amount, sqlite3_int64 offset) {
    WALFile *file = (WALFile *)base;
    __atomic_fetch_add(&requestedWrites, 1, __ATOMIC_RELAXED);
    int endsCommit = file->commitHeaderWritten;
    const unsigned char *bytes = data;
    file->commitHeaderWritten =
        amount == frameHeaderSize && (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
    int rc = buffered(file, data, amount, offset);
    if (rc != SQLITE_OK || !endsCommit) return rc;
    return flush(file);
}

// Copies the write into the buffer where it extends it or falls inside it; otherwise writes the
// buffer out first and starts it again, or writes directly what does not fit.
static int buffered(WALFile *file, const void *data, int amount, sqlite3_int64 offset) {
    if (file->length > 0) {
        sqlite3_int64 end = file->start + file->length;
        if (offset == end && file->length <= bufferCapacity - amount) {
            memcpy(file->buffer + file->length, data, (size_t)amount);
            file->length += amount;
            return SQLITE_OK;
        }
        if (offset >= file->start && offset <= end - amount) {
            memcpy(file->buffer + (offset - file->start), data, (size_t)amount);
            return SQLITE_OK;
        }
        int rc = flush(file);
        if (rc != SQLITE_OK) return rc;
    }
    if (!file->buffer && amount <= bufferCapacity) file->buffer = sqlite3_malloc(bufferCapacity);
    if (!file->buffer || amount > bufferCapacity || amount <= 0) {
        __atomic_fetch_add(&fileWrites, 1, __ATOMIC_RELAXED);
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    memcpy(file->buffer, data, (size_t)amount);
    file->start = offset;
    file->length = amount;
    return SQLITE_OK;
}

static int walTruncate(sqlite3_file *base, sqlite3_int64 size) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xTruncate(file->real, size);
}

static int walSync(sqlite3_file *base, int flags) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xSync(file->real, flags);
}

static int walFileSize(sqlite3_file *base, sqlite3_int64 *size) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileSize(file->real, size);
}

static int walLock(sqlite3_file *base, int level) {
    WALFile *file = (WALFile *)base;
    return file->real->pMethods->xLock(file->real, level);
}

static int walUnlock(sqlite3_file *base, int level) {
    WALFile *file = (WALFile *)base;
    return file->real->pMethods->xUnlock(file->real, level);
}

static int walCheckReservedLock(sqlite3_file *base, int *out) {
    WALFile *file = (WALFile *)base;
    return file->real->pMethods->xCheckReservedLock(file->real, out);
}

static int walFileControl(sqlite3_file *base, int op, void *argument) {
    WALFile *file = (WALFile *)base;
    int rc = flush(file);
    if (rc != SQLITE_OK) return rc;
    return file->real->pMethods->xFileControl(file->real, op, argument);
}

static int walSectorSize(sqlite3_file *base) {
    WALFile *file = (WALFile *)base;
    return file->real->pMethods->xSectorSize(file->real);
}

static int walDeviceCharacteristics(sqlite3_file *base) {
    WALFile *file = (WALFile *)base;
    return file->real->pMethods->xDeviceCharacteristics(file->real);
}

// Version 1: a WAL file has no shared memory and is not memory-mapped, so SQLite calls nothing more.
static const sqlite3_io_methods walMethods = {
    1, walClose, walRead, walWrite, walTruncate, walSync, walFileSize, walLock, walUnlock,
    walCheckReservedLock, walFileControl, walSectorSize, walDeviceCharacteristics,
    0, 0, 0, 0, 0, 0,
};

static int vfsOpen(sqlite3_vfs *self, const char *name, sqlite3_file *base, int flags, int *outFlags) {
    (void)self;
    if (!(flags & SQLITE_OPEN_WAL)) return realVFS()->xOpen(realVFS(), name, base, flags, outFlags);
    WALFile *file = (WALFile *)base;
    memset(file, 0, sizeof(WALFile));
    file->real = (sqlite3_file *)((char *)base + ROUND8(sizeof(WALFile)));
    int rc = realVFS()->xOpen(realVFS(), name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        return rc;
    }
    base->pMethods = &walMethods;
    return SQLITE_OK;
}

static int vfsDelete(sqlite3_vfs *self, const char *name, int syncDirectory) {
    (void)self;
    return realVFS()->xDelete(realVFS(), name, syncDirectory);
}

static int vfsAccess(sqlite3_vfs *self, const char *name, int flags, int *out) {
    (void)self;
    return realVFS()->xAccess(realVFS(), name, flags, out);
}

static int vfsFullPathname(sqlite3_vfs *self, const char *name, int size, char *out) {
    (void)self;
    return realVFS()->xFullPathname(realVFS(), name, size, out);
}

static void *vfsDlOpen(sqlite3_vfs *self, const char *name) {
    (void)self;
    return realVFS()->xDlOpen(realVFS(), name);
}

static void vfsDlError(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    realVFS()->xDlError(realVFS(), size, out);
}

static void (*vfsDlSym(sqlite3_vfs *self, void *library, const char *symbol))(void) {
    (void)self;
    return realVFS()->xDlSym(realVFS(), library, symbol);
}

static void vfsDlClose(sqlite3_vfs *self, void *library) {
    (void)self;
    realVFS()->xDlClose(realVFS(), library);
}

static int vfsRandomness(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    return realVFS()->xRandomness(realVFS(), size, out);
}

static int vfsSleep(sqlite3_vfs *self, int microseconds) {
    (void)self;
    return realVFS()->xSleep(realVFS(), microseconds);
}

static int vfsCurrentTime(sqlite3_vfs *self, double *out) {
    (void)self;
    return realVFS()->xCurrentTime(realVFS(), out);
}

static int vfsGetLastError(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    return realVFS()->xGetLastError ? realVFS()->xGetLastError(realVFS(), size, out) : 0;
}

static int vfsCurrentTimeInt64(sqlite3_vfs *self, sqlite3_int64 *out) {
    (void)self;
    return realVFS()->xCurrentTimeInt64(realVFS(), out);
}

int countersign_wal_vfs_register(void) {
    if (sqlite3_vfs_find(COUNTERSIGN_WAL_VFS_NAME)) return SQLITE_OK;
    sqlite3_vfs *real = sqlite3_vfs_find(0);
    if (!real || real->iVersion < 2) return SQLITE_ERROR;
    vfs.iVersion = 2;
    vfs.szOsFile = ROUND8((int)sizeof(WALFile)) + real->szOsFile;
    vfs.mxPathname = real->mxPathname;
    vfs.zName = COUNTERSIGN_WAL_VFS_NAME;
    vfs.pAppData = real;
    vfs.xOpen = vfsOpen;
    vfs.xDelete = vfsDelete;
    vfs.xAccess = vfsAccess;
    vfs.xFullPathname = vfsFullPathname;
    vfs.xDlOpen = vfsDlOpen;
    vfs.xDlError = vfsDlError;
    vfs.xDlSym = vfsDlSym;
    vfs.xDlClose = vfsDlClose;
    vfs.xRandomness = vfsRandomness;
    vfs.xSleep = vfsSleep;
    vfs.xCurrentTime = vfsCurrentTime;
    vfs.xGetLastError = vfsGetLastError;
    vfs.xCurrentTimeInt64 = vfsCurrentTimeInt64;
    return sqlite3_vfs_register(&vfs, 0);
}

uint64_t countersign_wal_vfs_requested_writes(void) { return __atomic_load_n(&requestedWrites, __ATOMIC_RELAXED); }

uint64_t countersign_wal_vfs_file_writes(void) { return __atomic_load_n(&fileWrites, __ATOMIC_RELAXED); }
