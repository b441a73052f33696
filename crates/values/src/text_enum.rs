//! Closed sets of words stored as `TEXT` and sent as JSON strings (a post's kind, a
//! notification's kind, a complaint's status ...), so rows and wire shapes hold the enum, never a
//! string that every reader must parse again.
//!
//! ```
//! values::text_enum! {
//!     /// How loud.
//!     pub enum Volume { Quiet = "quiet", Loud = "loud" }
//! }
//! assert_eq!(Volume::parse("loud"), Some(Volume::Loud));
//! assert_eq!(Volume::Quiet.as_str(), "quiet");
//! assert_eq!(Volume::ALL.len(), 2);
//! ```
//!
//! A stored word that is not one of the set fails to load (it can only come from outside this
//! program), so readers never meet one.

/// Declares a `Copy` enum whose variants each stand for one word: `ALL`, `as_str`, exact
/// `parse`, `Display`, serde as the word, and Diesel `Text` on every backend. `Debug` prints the
/// word as a string literal, as it is bound in SQL (so a logged query reads as it ran).
#[macro_export]
macro_rules! text_enum {
    ($(#[$doc:meta])* $vis:vis enum $name:ident { $($(#[$vdoc:meta])* $variant:ident = $word:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord,
            $crate::__diesel::expression::AsExpression, $crate::__diesel::deserialize::FromSqlRow,
        )]
        #[diesel(sql_type = $crate::__diesel::sql_types::Text)]
        $vis enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The word as stored and sent.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }

            /// The value a word stands for, exactly as [`Self::as_str`] spells it.
            pub fn parse(word: &str) -> Option<$name> {
                match word {
                    $($word => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Debug::fmt(self.as_str(), f)
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl $crate::__serde::Serialize for $name {
            fn serialize<S: $crate::__serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<DB: $crate::__diesel::backend::Backend>
            $crate::__diesel::serialize::ToSql<$crate::__diesel::sql_types::Text, DB> for $name
        where
            str: $crate::__diesel::serialize::ToSql<$crate::__diesel::sql_types::Text, DB>,
        {
            fn to_sql<'b>(
                &'b self,
                out: &mut $crate::__diesel::serialize::Output<'b, '_, DB>,
            ) -> $crate::__diesel::serialize::Result {
                <str as $crate::__diesel::serialize::ToSql<$crate::__diesel::sql_types::Text, DB>>::to_sql(
                    self.as_str(),
                    out,
                )
            }
        }

        impl<DB: $crate::__diesel::backend::Backend>
            $crate::__diesel::deserialize::FromSql<$crate::__diesel::sql_types::Text, DB> for $name
        where
            String: $crate::__diesel::deserialize::FromSql<$crate::__diesel::sql_types::Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> $crate::__diesel::deserialize::Result<Self> {
                let word = <String as $crate::__diesel::deserialize::FromSql<
                    $crate::__diesel::sql_types::Text,
                    DB,
                >>::from_sql(bytes)?;
                $name::parse(&word).ok_or_else(|| {
                    format!(concat!("not a ", stringify!($name), ": {:?}"), word).into()
                })
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::text_enum! {
        /// For the test.
        enum Colour { Red = "red", DarkBlue = "dark blue" }
    }

    #[test]
    fn words_round_trip() {
        for c in Colour::ALL {
            assert_eq!(Colour::parse(c.as_str()), Some(*c));
        }
        assert_eq!(Colour::parse("Red"), None);
        assert_eq!(Colour::DarkBlue.to_string(), "dark blue");
        assert_eq!(format!("{:?}", Some(Colour::Red)), "Some(\"red\")");
        assert_eq!(serde_json::to_string(&Colour::DarkBlue).ok().as_deref(), Some("\"dark blue\""));
    }
}
