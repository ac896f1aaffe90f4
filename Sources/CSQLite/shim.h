#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro Swift cannot import: SQLite copies the bound text.
static inline int csqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}
