// CommandStore's API is written in SQLiteDatabase's types (`Database`, `Schema`, `Migration`,
// `DatabaseError`, …), which lived in CommandStore itself before the SQL layer became a module of
// its own. Re-exported, so a client that imports CommandStore alone keeps compiling, as before the
// move ("Moving to SQLiteDatabase" in the PersistingCommands article).
@_exported public import SQLiteDatabase
