//! Typed bit sets of rules: which rules a call breaks.
//!
//! Each structure's (or command's) rules are one type, declared with [`rule_set!`]: the rules in
//! order, each a bit numbered by its place, so no number is typed by hand and no two rules of a
//! set share a bit. A call whose rules come from several structures has a set composed of theirs,
//! declared with [`composed_rules!`] (a typed part each, its bits placed after the previous
//! part's, in one `u64`), or, for the commands of one kind that share structural rules,
//! [`CommandRules`] (the shared set and the command's own, each its own type, in one `u64`). A
//! set of one type is not usable as another's: a part goes in and comes out as its own type.
//!
//! The operations `evaluate` uses (`with`, `and`, `has`, `is_empty`) are plain integer
//! operations, the parts' places constants.

use std::fmt;
use std::marker::PhantomData;

/// A set of rules, one bit per rule.
pub trait RuleSet: Copy + Eq + fmt::Debug + 'static {
    /// How many rules the set has: its bits are 0 to `COUNT - 1`.
    const COUNT: u32;
    /// No rule.
    const NONE: Self;
    /// The bits of the rules in the set.
    fn bits(self) -> u64;
    /// The set of the rules whose bits are set in `bits` (bits from `COUNT` up are ignored).
    fn from_bits(bits: u64) -> Self;
    /// The rules of both sets.
    #[must_use]
    fn union(self, other: Self) -> Self;
}

/// A part of the composed set `C`: where its bits start in `C`.
pub trait PartOf<C>: RuleSet {
    const OFFSET: u32;
}

/// The low `count` bits.
#[inline(always)]
pub const fn mask(count: u32) -> u64 {
    if count >= 64 {
        u64::MAX
    } else {
        (1 << count) - 1
    }
}

/// 1, for counting a declaration's rules.
#[doc(hidden)]
pub const fn one(_rule: &str) -> u32 {
    1
}

/// Writes the names of the rules of `bits`, `names[i]` being bit `i`'s: `Name{A, B}`.
#[doc(hidden)]
pub fn debug_rules(f: &mut fmt::Formatter, set: &str, names: &[&str], bits: u64) -> fmt::Result {
    let broken = names
        .iter()
        .enumerate()
        .filter(|(i, _)| bits >> i & 1 == 1)
        .map(|(_, name)| *name);
    write!(f, "{set}{{{}}}", broken.collect::<Vec<_>>().join(", "))
}

/// Declares a set of rules: a type whose rules are associated constants, bit 0 the first
/// declared, and the operations `evaluate` and `describe` use.
///
/// ```ignore
/// rule_set! {
///     /// The rules of `VkImportFooInfo`.
///     pub struct ImportFooRules {
///         /// `VUID-VkImportFooInfo-handleType-parameter`.
///         TYPE_VALUE,
///         NULL_HANDLE,
///     }
/// }
/// let broken = ImportFooRules::NONE.with(ImportFooRules::NULL_HANDLE, handle == 0);
/// ```
macro_rules! rule_set {
    (@number $n:expr;) => {};
    (@number $n:expr; $(#[$meta:meta])* $rule:ident, $($rest:tt)*) => {
        $(#[$meta])*
        pub const $rule: Self = Self(1 << ($n));
        $crate::rules::rule_set::rule_set!(@number $n + 1; $($rest)*);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$rule_meta:meta])* $rule:ident,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Default, PartialEq, Eq)]
        $vis struct $name(u64);

        #[allow(dead_code)]
        impl $name {
            /// No rule.
            pub const NONE: Self = Self(0);
            $crate::rules::rule_set::rule_set!(@number 0; $($(#[$rule_meta])* $rule,)*);
            /// Every rule of the set.
            pub const ALL: Self = Self($crate::rules::rule_set::mask(
                <Self as $crate::rules::rule_set::RuleSet>::COUNT,
            ));
            const NAMES: &'static [&'static str] = &[$(stringify!($rule)),*];

            #[inline(always)]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// Whether any rule of `rules` is in the set.
            #[inline(always)]
            pub const fn has(self, rules: Self) -> bool {
                self.0 & rules.0 != 0
            }

            /// These rules, and `rule` when `broken`.
            #[inline(always)]
            #[must_use]
            pub const fn with(self, rule: Self, broken: bool) -> Self {
                Self(self.0 | if broken { rule.0 } else { 0 })
            }

            /// These rules and `other`'s.
            #[inline(always)]
            #[must_use]
            pub const fn and(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }

            /// How many rules are in the set.
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }
        }

        impl $crate::rules::rule_set::RuleSet for $name {
            const COUNT: u32 = 0 $(+ $crate::rules::rule_set::one(stringify!($rule)))*;
            const NONE: Self = Self(0);

            #[inline(always)]
            fn bits(self) -> u64 {
                self.0
            }

            #[inline(always)]
            fn from_bits(bits: u64) -> Self {
                Self(bits & Self::ALL.0)
            }

            #[inline(always)]
            fn union(self, other: Self) -> Self {
                self.and(other)
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                $crate::rules::rule_set::debug_rules(f, stringify!($name), Self::NAMES, self.0)
            }
        }

        const _: () = assert!(
            <$name as $crate::rules::rule_set::RuleSet>::COUNT <= 64,
            "more rules than bits of a u64"
        );
    };
}
pub(crate) use rule_set;

/// Declares the set of a call whose rules are several structures' sets: a typed part each, in
/// one `u64`, each part's bits after the previous part's. A part is put in with `and` and read
/// back with its accessor (or `part`), as its own type; one type cannot be two parts.
///
/// ```ignore
/// composed_rules! {
///     pub struct AllocateRules {
///         args: AllocateArgsRules,
///         import_fd: ImportFdRules,
///     }
/// }
/// let broken = AllocateRules::NONE.and(AllocateArgsRules::INFO_NULL);
/// assert!(broken.args().has(AllocateArgsRules::INFO_NULL));
/// ```
macro_rules! composed_rules {
    (@parts $name:ident $offset:expr;) => {
        const _: () = assert!($offset <= 64, "the parts have more rules than bits of a u64");
    };
    (@parts $name:ident $offset:expr; $(#[$meta:meta])* $field:ident: $part:ty, $($rest:tt)*) => {
        impl $crate::rules::rule_set::PartOf<$name> for $part {
            const OFFSET: u32 = $offset;
        }

        #[allow(dead_code)]
        impl $name {
            $(#[$meta])*
            #[inline(always)]
            pub fn $field(self) -> $part {
                self.part()
            }
        }

        $crate::rules::rule_set::composed_rules!(
            @parts $name $offset + <$part as $crate::rules::rule_set::RuleSet>::COUNT;
            $($rest)*
        );
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$part_meta:meta])* $field:ident: $part:ty,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Default, PartialEq, Eq)]
        $vis struct $name(u64);

        #[allow(dead_code)]
        impl $name {
            /// No rule.
            pub const NONE: Self = Self(0);

            #[inline(always)]
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }

            /// These rules and `rules`, of one part.
            #[inline(always)]
            #[must_use]
            pub fn and<P: $crate::rules::rule_set::PartOf<Self>>(self, rules: P) -> Self {
                Self(self.0 | $crate::rules::rule_set::RuleSet::bits(rules) << P::OFFSET)
            }

            /// These rules and `other`'s.
            #[inline(always)]
            #[must_use]
            pub const fn and_all(self, other: Self) -> Self {
                Self(self.0 | other.0)
            }

            /// Whether any rule of `rules`, of one part, is in the set.
            #[inline(always)]
            pub fn has<P: $crate::rules::rule_set::PartOf<Self>>(self, rules: P) -> bool {
                self.0 & $crate::rules::rule_set::RuleSet::bits(rules) << P::OFFSET != 0
            }

            /// The rules of the part `P` in the set.
            #[inline(always)]
            pub fn part<P: $crate::rules::rule_set::PartOf<Self>>(self) -> P {
                $crate::rules::rule_set::RuleSet::from_bits(self.0 >> P::OFFSET)
            }

            /// How many rules are in the set.
            pub const fn len(self) -> u32 {
                self.0.count_ones()
            }
        }

        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter) -> ::std::fmt::Result {
                f.debug_struct(stringify!($name))
                    $(.field(stringify!($field), &self.$field()))*
                    .finish()
            }
        }

        $crate::rules::rule_set::composed_rules!(@parts $name 0; $($(#[$part_meta])* $field: $part,)*);
    };
}
pub(crate) use composed_rules;

/// The rules of one command of a kind (an export, a query): the structural rules `S` every
/// command of the kind shares, and the command's own `R`, each put in and read back as its own
/// set. One `u64`, `R`'s bits then `S`'s (the command's own rules stay where its
/// `evaluate_values` computes them; the shared rules' constants are placed after them): whether
/// the call breaks any rule is one test.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CommandRules<S, R> {
    bits: u64,
    parts: PhantomData<(S, R)>,
}

impl<S: RuleSet, R: RuleSet> CommandRules<S, R> {
    const FITS: () = assert!(
        S::COUNT + R::COUNT <= 64,
        "the shared and the command's own rules have more rules than bits of a u64"
    );

    /// The shared rules `shared` and the command's own `own`.
    #[inline(always)]
    pub fn new(shared: S, own: R) -> Self {
        let () = Self::FITS;
        Self {
            bits: shared.bits() << R::COUNT | own.bits(),
            parts: PhantomData,
        }
    }

    /// The shared structural rules in the set.
    #[inline(always)]
    pub fn shared(self) -> S {
        S::from_bits(self.bits >> R::COUNT)
    }

    /// The command's own rules in the set.
    #[inline(always)]
    pub fn own(self) -> R {
        R::from_bits(self.bits)
    }

    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// These rules and the command's own `own`.
    #[inline(always)]
    #[must_use]
    pub fn and_own(self, own: R) -> Self {
        Self {
            bits: self.bits | own.bits(),
            parts: PhantomData,
        }
    }

    /// How many rules are in the set.
    pub fn len(self) -> u32 {
        self.bits.count_ones()
    }
}

impl<S: RuleSet, R: RuleSet> fmt::Debug for CommandRules<S, R> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.debug_struct("CommandRules")
            .field("shared", &self.shared())
            .field("own", &self.own())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    rule_set! {
        struct First {
            A,
            B,
            C,
        }
    }

    rule_set! {
        struct Second {
            D,
            E,
        }
    }

    rule_set! {
        struct Nothing {}
    }

    composed_rules! {
        struct Both {
            first: First,
            second: Second,
        }
    }

    #[test]
    fn rules_are_numbered_in_declaration_order() {
        assert_eq!([First::A.0, First::B.0, First::C.0], [1, 2, 4]);
        assert_eq!(First::COUNT, 3);
        assert_eq!(First::ALL, First::A.and(First::B).and(First::C));
        assert_eq!(Nothing::COUNT, 0);
        assert_eq!(Nothing::ALL, Nothing::NONE);
        let set = First::NONE.with(First::A, true).with(First::B, false);
        assert!(set.has(First::A) && !set.has(First::B));
        assert_eq!(set.len(), 1);
        assert_eq!(format!("{:?}", First::A.and(First::C)), "First{A, C}");
        assert_eq!(First::from_bits(u64::MAX), First::ALL);
    }

    #[test]
    fn composed_parts_follow_each_other_and_come_back_as_themselves() {
        assert_eq!(<First as PartOf<Both>>::OFFSET, 0);
        assert_eq!(<Second as PartOf<Both>>::OFFSET, 3);
        let both = Both::NONE.and(First::C).and(Second::D);
        assert_eq!(both.0, 0b1100);
        assert_eq!((both.first(), both.second()), (First::C, Second::D));
        assert!(both.has(Second::D) && !both.has(Second::E) && !both.has(First::A));
        assert_eq!(both.len(), 2);
        assert!(Both::NONE.and(First::ALL).second().is_empty());
        assert!(Both::NONE.and(Second::ALL).first().is_empty());
        assert_eq!(
            format!("{both:?}"),
            "Both { first: First{C}, second: Second{D} }"
        );
    }

    #[test]
    fn a_commands_rules_are_the_shared_and_its_own() {
        let set = CommandRules::new(First::B, Second::E);
        let set = set.and_own(Second::D);
        assert_eq!((set.shared(), set.own()), (First::B, Second::ALL));
        assert_eq!(set.len(), 3);
        assert!(!set.is_empty());
        assert_eq!(
            format!("{set:?}"),
            "CommandRules { shared: First{B}, own: Second{D, E} }"
        );
        assert_eq!(
            CommandRules::new(First::ALL, Second::NONE).own(),
            Second::NONE
        );
        assert_eq!(
            CommandRules::new(First::NONE, Second::ALL).shared(),
            First::NONE
        );
        let none = CommandRules::new(First::NONE, Second::NONE);
        assert!(none.is_empty());
    }
}
