//! The colour quota of the score walk: a few chosen colours must be used up low on the board.
//!
//! The field's published method (Blackwood's solver) requires that three
//! colours — one frame colour and two interior colours — show on at least
//! `q(i)` sides of the pieces placed by depth `i`, a curve rising to nearly
//! all of their sides by five eighths of the board. Those colours are then
//! spent before the break band, which is built from a smaller alphabet. The
//! quota is a minimum, checked as a cut: candidate lists are sorted with the
//! most quota sides first, so the scan stops at the first candidate that
//! would leave the count under the curve.
//!
//! Here both parts are data: the colours (a rule, or a list) and the curve,
//! as points (fraction of the fill order, fraction of the colours' sides),
//! linear between them and zero before the first. The default curve is the
//! published one scaled: on Eternity II (122 sides of the three colours, 256
//! cells) it gives 28 sides by cell 26, 71 by 56, 89 by 76, 106 by 102 and
//! 119 by 160, and nothing after 160.

use std::fmt;
use std::str::FromStr;

use crate::puzzle::{Colour, GREY, Instance};

/// How the quota's colours are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Colours {
    /// No quota.
    None,
    /// Chosen by short pilot walks ([`crate::score::plan::Plan::settle_for`]) among the
    /// [`AUTO_SETS`] most concentrated sets of `frame` and `interior` colours,
    /// and no quota at all; the most concentrated set where no walk decides.
    Auto {
        /// Frame colours.
        frame: usize,
        /// Interior colours.
        interior: usize,
    },
    /// `frame` frame colours and `interior` interior colours that crowd onto
    /// the fewest pieces: the set maximizing Σ over pieces of (its sides in
    /// the set)², ties to more pieces with two or more such sides, then to
    /// lower numbers. On Eternity II the published choice ranks third of 680
    /// by this measure, the rarest colours 596th.
    Concentrated {
        /// Frame colours.
        frame: usize,
        /// Interior colours.
        interior: usize,
    },
    /// `frame` frame colours and `interior` interior colours with the fewest sides (ties: lowest number).
    Rarest {
        /// Frame colours.
        frame: usize,
        /// Interior colours.
        interior: usize,
    },
    /// The same counts, with the most sides.
    Commonest {
        /// Frame colours.
        frame: usize,
        /// Interior colours.
        interior: usize,
    },
    /// These colours.
    List(Vec<Colour>),
}

/// The quota: its colours and its curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Quota {
    /// Which colours count.
    pub colours: Colours,
    /// (fraction of the fill order, fraction of the colours' sides), increasing in both.
    pub curve: Vec<(f64, f64)>,
}

/// The published curve (Blackwood's solver on 256 cells and 122 sides), as fractions.
pub const FIELD_CURVE: [(f64, f64); 6] = [
    (16.0 / 256.0, 0.0),
    (26.0 / 256.0, 28.0 / 122.0),
    (56.0 / 256.0, 71.0 / 122.0),
    (76.0 / 256.0, 89.0 / 122.0),
    (102.0 / 256.0, 106.0 / 122.0),
    (160.0 / 256.0, 119.0 / 122.0),
];

impl Default for Quota {
    fn default() -> Self {
        Quota { colours: Colours::Auto { frame: 1, interior: 2 }, curve: FIELD_CURVE.to_vec() }
    }
}

impl Quota {
    /// No quota at all.
    pub fn none() -> Quota {
        Quota { colours: Colours::None, curve: FIELD_CURVE.to_vec() }
    }

    /// The colours this quota counts on `instance`, in increasing order.
    pub fn colours(&self, instance: &Instance) -> Vec<Colour> {
        let mut chosen = match &self.colours {
            Colours::None => Vec::new(),
            Colours::List(list) => list.clone(),
            Colours::Concentrated { frame, interior } | Colours::Auto { frame, interior } => {
                concentrated(instance, *frame, *interior, 1).into_iter().next().unwrap_or_default()
            }
            Colours::Rarest { frame, interior } => by_count(instance, *frame, *interior, false),
            Colours::Commonest { frame, interior } => by_count(instance, *frame, *interior, true),
        };
        chosen.sort_unstable();
        chosen.dedup();
        chosen
    }

    /// The quota sides needed once the cell at `position` of a fill order of
    /// `cells` cells is placed, when the colours show on `total` sides in all.
    pub fn need(&self, position: usize, cells: usize, total: usize) -> usize {
        let x = position as f64 / cells.max(1) as f64;
        let last = self.curve.last().map_or(0.0, |p| p.0);
        if self.curve.is_empty() || x < self.curve[0].0 || x > last {
            return 0;
        }
        let y = self.curve.windows(2).find(|w| x <= w[1].0).map_or(self.curve[0].1, |w| {
            let t = if w[1].0 > w[0].0 { (x - w[0].0) / (w[1].0 - w[0].0) } else { 1.0 };
            w[0].1 + t * (w[1].1 - w[0].1)
        });
        (y * total as f64).floor() as usize
    }

    /// Checks the quota against `instance`.
    ///
    /// # Errors
    /// A colour the pieces do not show, or grey.
    pub fn check(&self, instance: &Instance) -> Result<(), String> {
        if let Colours::List(list) = &self.colours {
            let max = instance.max_colour();
            if let Some(bad) = list.iter().find(|&&c| c == GREY || c > max) {
                return Err(format!("colour {bad} is not a colour of the pieces (1..={max})"));
            }
        }
        Ok(())
    }
}

/// Sides per colour over all pieces, and which colours are frame colours.
fn counts(instance: &Instance) -> (Vec<usize>, Vec<bool>) {
    let colours = usize::from(instance.max_colour()) + 1;
    let mut count = vec![0usize; colours];
    let (mut frame, mut inside) = (vec![false; colours], vec![false; colours]);
    for p in &instance.pieces {
        for &c in &p.0 {
            count[usize::from(c)] += 1;
            if p.grey_sides() == 0 { inside[usize::from(c)] = true } else { frame[usize::from(c)] = true }
        }
    }
    let frame_only = (0..colours).map(|c| frame[c] && !inside[c]).collect();
    (count, frame_only)
}

/// `frame` frame colours and `interior` interior colours, by side count (fewest first unless `most`).
fn by_count(instance: &Instance, frame: usize, interior: usize, most: bool) -> Vec<Colour> {
    let (count, is_frame) = counts(instance);
    let pick = |want_frame: bool, n: usize| {
        let mut cs: Vec<usize> = (1..count.len()).filter(|&c| count[c] > 0 && is_frame[c] == want_frame).collect();
        cs.sort_by_key(|&c| (if most { usize::MAX - count[c] } else { count[c] }, c));
        cs.into_iter().take(n).map(|c| c as Colour).collect::<Vec<_>>()
    };
    let mut chosen = pick(true, frame);
    chosen.extend(pick(false, interior));
    chosen
}

/// Colour sets of at most this many candidates are searched whole; larger ones greedily.
const EXHAUSTIVE: usize = 200_000;

/// How many of the most concentrated sets [`Colours::Auto`] tries.
pub const AUTO_SETS: usize = 3;

/// The candidates of an automatic quota: the [`AUTO_SETS`] most concentrated
/// sets as lists, then no quota; a quota that is not automatic alone.
pub fn candidates(quota: &Quota, instance: &Instance) -> Vec<Quota> {
    let Colours::Auto { frame, interior } = quota.colours else { return vec![quota.clone()] };
    let mut all: Vec<Quota> = concentrated(instance, frame, interior, AUTO_SETS)
        .into_iter()
        .filter(|set| !set.is_empty())
        .map(|set| Quota { colours: Colours::List(set), curve: quota.curve.clone() })
        .collect();
    all.push(Quota { colours: Colours::None, curve: quota.curve.clone() });
    all
}

/// The `k` sets of `frame` frame and `interior` interior colours that crowd
/// most onto few pieces ([`Colours::Concentrated`]), best first.
fn concentrated(instance: &Instance, frame: usize, interior: usize, k: usize) -> Vec<Vec<Colour>> {
    let (count, is_frame) = counts(instance);
    let class = |f: bool| (1..count.len()).filter(|&c| count[c] > 0 && is_frame[c] == f).collect::<Vec<usize>>();
    let (frames, inners) = (class(true), class(false));
    let (frame, interior) = (frame.min(frames.len()), interior.min(inners.len()));
    let value = |set: &[usize]| {
        let (mut squares, mut crowded) = (0usize, 0usize);
        for p in &instance.pieces {
            let q = p.0.iter().filter(|&&c| set.contains(&usize::from(c))).count();
            squares += q * q;
            crowded += usize::from(q >= 2);
        }
        (squares, crowded)
    };
    let sets = binomial(frames.len(), frame).saturating_mul(binomial(inners.len(), interior));
    let as_colours = |set: Vec<usize>| set.into_iter().map(|c| c as Colour).collect::<Vec<_>>();
    if sets <= EXHAUSTIVE {
        let mut all: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        for f in combinations(&frames, frame) {
            for i in combinations(&inners, interior) {
                let set: Vec<usize> = f.iter().chain(&i).copied().collect();
                all.push((value(&set), set));
            }
        }
        // Better value first; on a tie, the set listed first (lower numbers), as the sort is stable.
        all.sort_by_key(|a| std::cmp::Reverse(a.0));
        return all.into_iter().take(k).map(|(_, set)| as_colours(set)).collect();
    }
    {
        // Greedy: add the colour that raises the value most, frame colours first.
        let mut set = Vec::new();
        for (pool, n) in [(&frames, frame), (&inners, interior)] {
            for _ in 0..n {
                let pick = pool.iter().filter(|c| !set.contains(*c)).copied().max_by(|&a, &b| {
                    let with = |c: usize| value(&[set.as_slice(), &[c]].concat());
                    with(a).cmp(&with(b)).then(b.cmp(&a))
                });
                set.extend(pick);
            }
        }
        vec![as_colours(set)]
    }
}

/// `n` choose `k`, saturating.
fn binomial(n: usize, k: usize) -> usize {
    (0..k.min(n)).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Every `k`-subset of `items`, in lexicographic order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

impl fmt::Display for Quota {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.colours {
            Colours::None => f.write_str("none"),
            Colours::Auto { frame, interior } => write!(f, "auto:{frame}+{interior}"),
            Colours::Concentrated { frame, interior } => write!(f, "concentrated:{frame}+{interior}"),
            Colours::Rarest { frame, interior } => write!(f, "rarest:{frame}+{interior}"),
            Colours::Commonest { frame, interior } => write!(f, "commonest:{frame}+{interior}"),
            Colours::List(list) => {
                let names: Vec<String> = list.iter().map(u8::to_string).collect();
                f.write_str(&names.join(","))
            }
        }?;
        if self.curve != FIELD_CURVE {
            let points: Vec<String> = self.curve.iter().map(|(x, y)| format!("{x}:{y}")).collect();
            write!(f, "@{}", points.join(","))?;
        }
        Ok(())
    }
}

impl FromStr for Quota {
    type Err = String;

    /// `none`, `auto[:F+I]`, `concentrated[:F+I]`, `rarest[:F+I]`, `commonest[:F+I]` or `C,C,...` (colour numbers),
    /// optionally followed by `@X:Y,X:Y,...` (the curve's points).
    fn from_str(s: &str) -> Result<Quota, String> {
        let (colours, curve) = match s.split_once('@') {
            Some((c, points)) => (c, Some(points)),
            None => (s, None),
        };
        let counts = |rest: Option<&str>| -> Result<(usize, usize), String> {
            let Some(rest) = rest else { return Ok((1, 2)) };
            let (f, i) = rest.split_once('+').ok_or_else(|| format!("{s}: expected FRAME+INTERIOR, found {rest}"))?;
            let n = |x: &str| x.trim().parse::<usize>().map_err(|e| format!("{s}: {x}: {e}"));
            Ok((n(f)?, n(i)?))
        };
        let (rule, rest) = match colours.split_once(':') {
            Some((r, rest)) => (r, Some(rest)),
            None => (colours, None),
        };
        let colours = match rule {
            "none" => Colours::None,
            "auto" => counts(rest).map(|(frame, interior)| Colours::Auto { frame, interior })?,
            "concentrated" => counts(rest).map(|(frame, interior)| Colours::Concentrated { frame, interior })?,
            "rarest" => counts(rest).map(|(frame, interior)| Colours::Rarest { frame, interior })?,
            "commonest" => counts(rest).map(|(frame, interior)| Colours::Commonest { frame, interior })?,
            list => Colours::List(
                list.split(',')
                    .map(|c| c.trim().parse::<Colour>().map_err(|e| format!("{s}: colour {c}: {e}")))
                    .collect::<Result<_, _>>()?,
            ),
        };
        let curve = match curve {
            None => FIELD_CURVE.to_vec(),
            Some(points) => parse_curve(s, points)?,
        };
        Ok(Quota { colours, curve })
    }
}

/// The curve's points, each `X:Y` with both in 0..=1 and X increasing.
fn parse_curve(s: &str, points: &str) -> Result<Vec<(f64, f64)>, String> {
    let mut curve = Vec::new();
    for point in points.split(',') {
        let (x, y) = point.split_once(':').ok_or_else(|| format!("{s}: expected X:Y, found {point}"))?;
        let n = |v: &str| v.trim().parse::<f64>().map_err(|e| format!("{s}: {v}: {e}"));
        let (x, y) = (n(x)?, n(y)?);
        if !(0.0..=1.0).contains(&x) || !(0.0..=1.0).contains(&y) {
            return Err(format!("{s}: the point {point} is outside 0..=1"));
        }
        if curve.last().is_some_and(|&(px, _): &(f64, f64)| x <= px) {
            return Err(format!("{s}: the point {point} does not follow the one before"));
        }
        curve.push((x, y));
    }
    Ok(curve)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The default curve on Eternity II's 256 cells and 122 sides is the
    /// published table (within one side of rounding): fails if the scaling
    /// or the interpolation drifts.
    #[test]
    fn the_default_curve_is_the_published_one_on_eternity_ii() {
        let q = Quota::default();
        let published = |i: usize| -> usize {
            let i = i as f64;
            (if i <= 16.0 {
                0.0
            } else if i <= 26.0 {
                (i - 16.0) * 2.8
            } else if i <= 56.0 {
                (i - 26.0) * 1.43333 + 28.0
            } else if i <= 76.0 {
                (i - 56.0) * 0.9 + 71.0
            } else if i <= 102.0 {
                (i - 76.0) * 0.6538 + 89.0
            } else if i <= 160.0 {
                (i - 102.0) / 4.4615 + 106.0
            } else {
                0.0
            }) as usize
        };
        for i in 0..256 {
            // Placing the cell at position i needs q(i) sides, the cell's own counted.
            let (ours, theirs) = (q.need(i, 256, 122), published(i));
            assert!(ours.abs_diff(theirs) <= 1, "cell {i}: {ours} against {theirs}");
        }
        assert_eq!(q.need(200, 256, 122), 0, "no quota after the curve's last point");
    }

    #[test]
    fn quotas_parse_print_and_refuse() {
        for text in
            ["none", "auto:1+2", "concentrated:1+2", "rarest:1+2", "commonest:0+3", "5,20,7", "5,7@0.1:0,0.5:0.9"]
        {
            let q: Quota = text.parse().unwrap();
            assert_eq!(q.to_string(), text);
        }
        assert_eq!("rarest".parse::<Quota>().unwrap().colours, Colours::Rarest { frame: 1, interior: 2 });
        assert_eq!(Quota::default().to_string(), "auto:1+2");
        assert!("rarest:1".parse::<Quota>().is_err());
        assert!("5,x".parse::<Quota>().is_err());
        assert!("5@0.5:0,0.4:1".parse::<Quota>().unwrap_err().contains("follow"));
        assert!("5@0.5:2".parse::<Quota>().unwrap_err().contains("outside"));
    }

    /// On the official set the rarest rule picks a frame colour and the two
    /// interior colours with 48 sides (not 50): fails if frame and interior
    /// colours are confused or the order is reversed.
    #[test]
    fn rules_pick_by_class_and_count() {
        let instance = crate::formats::load::instance(
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/official/pieces.txt")),
            &crate::formats::load::InstanceOptions { columns: Some("bltr".parse().unwrap()), size: None, clues: None },
        )
        .unwrap()
        .instance;
        assert_eq!(Quota::default().colours(&instance), vec![3, 6, 8], "the most concentrated set");
        let sets: Vec<String> = candidates(&Quota::default(), &instance).iter().map(Quota::to_string).collect();
        assert_eq!(sets, ["3,6,8", "2,13,15", "5,7,20", "none"], "the published set ranks third");
        let rarest = Quota { colours: Colours::Rarest { frame: 1, interior: 2 }, ..Quota::default() };
        assert_eq!(rarest.colours(&instance), vec![1, 6, 7]);
        let most = Quota { colours: Colours::Commonest { frame: 1, interior: 2 }, ..Quota::default() };
        assert_eq!(most.colours(&instance), vec![1, 11, 12]);
        assert!(Quota { colours: Colours::List(vec![23]), ..Quota::default() }.check(&instance).is_err());
    }
}
