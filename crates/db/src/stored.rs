//! Columns that name stored objects (`storage` keys, or `/media/<key>` URL paths). Each domain
//! lists its own beside its rows (`posts::STORED`, `profiles::STORED`), so what reads every
//! object a row points at (backups, `selfsound verify`) never keeps a list of its own.

use diesel::QueryResult;

use crate::DbConnection;

/// A column whose values name stored objects, and how to read every key in it.
#[derive(Clone, Copy)]
pub struct StoredColumn {
    /// `table.column`, as the schema names it.
    pub column: &'static str,
    /// Every distinct key the column names (one statement).
    pub keys: fn(&mut DbConnection) -> QueryResult<Vec<String>>,
}

impl std::fmt::Debug for StoredColumn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.column)
    }
}
