//! Peephole passes over the fast code (never the trace code): constant folding, jump threading
//! and pair fusion. Each saves dispatches of the machine's loop, which is what a run costs.

use super::{Instr, KOp};
use crate::ast::{BinOp, UnOp};
use crate::ops;
use crate::symbols::{Lifetime, Symbol};

/// `a op b` of a binary operator on two literals, as the machine computes it; `None` when the
/// operation warns (a zero divisor) or is compiled with jumps (`&&`, `||`).
pub(super) fn fold_binary(op: BinOp, a: f64, b: f64) -> Option<f64> {
    Some(match op {
        BinOp::Pow => ops::pow(a, b),
        BinOp::Mul => a * b,
        BinOp::Percent => a * b * 0.01,
        BinOp::Div if b != 0.0 => a / b,
        BinOp::Mod if b != 0.0 => ops::fmod(a, b),
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Shl => ops::shl(a, b),
        BinOp::Shr => ops::shr(a, b),
        BinOp::Lt => ops::lt(a, b),
        BinOp::Le => ops::le(a, b),
        BinOp::Gt => ops::gt(a, b),
        BinOp::Ge => ops::ge(a, b),
        BinOp::Eq => ops::equal(a, b),
        BinOp::Ne => ops::not_equal(a, b),
        BinOp::ApproxEq => ops::approx_eq(a, b),
        BinOp::BitAnd => ops::bit_and(a, b),
        BinOp::BitXor => ops::bit_xor(a, b),
        BinOp::BitOr => ops::bit_or(a, b),
        BinOp::Xor => ops::xor(a, b),
        BinOp::Div | BinOp::Mod | BinOp::And | BinOp::Or => return None,
    })
}

/// `op a` of a unary operator on a literal, as the machine computes it.
pub(super) fn fold_unary(op: UnOp, a: f64) -> f64 {
    match op {
        UnOp::Not => ops::not(a),
        UnOp::BitNot => ops::bit_not(a),
        UnOp::Neg => ops::neg(a),
        UnOp::BitCount => ops::bit_count(a),
        UnOp::Ln => ops::ln(a),
    }
}

/// Jump threading: a kept-false value that lands on another "jump if false, keep" jumps
/// straight to its target (likewise for true, and for plain jumps), as happens in chains like
/// `!a && b && c` once the 0/1 conversions between them are gone; a jump to `Ret` is `Ret`.
pub(super) fn thread_jumps(code: &mut [Instr]) {
    for i in 0..code.len() {
        let mut hops = 0;
        while let Some(next) = match (code[i], code.get(target_of(code[i]) as usize)) {
            (Instr::JumpIfFalseKeep(_), Some(&Instr::JumpIfFalseKeep(t)))
            | (Instr::JumpIfTrueKeep(_), Some(&Instr::JumpIfTrueKeep(t)))
            | (Instr::Jump(_), Some(&Instr::Jump(t))) => Some(t),
            _ => None,
        } {
            hops += 1;
            if hops > 64 {
                break;
            }
            if let Instr::JumpIfFalseKeep(t) | Instr::JumpIfTrueKeep(t) | Instr::Jump(t) =
                &mut code[i]
            {
                *t = next;
            }
        }
        if let Instr::Jump(t) = code[i]
            && code.get(t as usize) == Some(&Instr::Ret)
        {
            code[i] = Instr::Ret;
        }
    }
}

fn target_of(i: Instr) -> u32 {
    match i {
        Instr::JumpIfFalseKeep(t)
        | Instr::JumpIfTrueKeep(t)
        | Instr::JumpIfFalsePop(t)
        | Instr::Jump(t) => t,
        _ => u32::MAX,
    }
}

/// Pair fusion: where an instruction is followed by one it can absorb, it becomes a fused
/// instruction that does both and continues after the second (or at its jump target). The
/// second instruction stays in place unchanged, so jumps landing on it still work and no
/// address moves; `node_of` of the fused instruction is the first one's, the only part that
/// can fail.
pub(super) fn fuse_pairs(code: &mut [Instr], slots: &[(String, Symbol)]) {
    let state = |s: u32| slots[s as usize].1.lifetime() == Lifetime::State;
    for i in 0..code.len().saturating_sub(1) {
        // Pairs are read from the unfused code: `code[i + 1]` is never rewritten before `i`.
        let (a, b) = (code[i], code[i + 1]);
        let fused = match (a, b) {
            (Instr::SymK(s, op, k), _) => match u16::try_from(s) {
                Ok(s) => match b {
                    Instr::JumpIfFalseKeep(t) => Some(Instr::SymKJumpIfFalseKeep(s, op, t, k)),
                    Instr::JumpIfTrueKeep(t) => Some(Instr::SymKJumpIfTrueKeep(s, op, t, k)),
                    Instr::JumpIfFalsePop(t) => Some(Instr::SymKJumpIfFalsePop(s, op, t, k)),
                    _ => None,
                },
                Err(_) => None,
            },
            (Instr::Not, Instr::JumpIfFalseKeep(t)) => Some(Instr::NotJumpIfFalseKeep(t)),
            (Instr::Not, Instr::JumpIfFalsePop(t)) => Some(Instr::NotJumpIfFalsePop(t)),
            (_, Instr::JumpIfFalseKeep(t)) => {
                KOp::of(a).map(|(op, k)| Instr::KJumpIfFalseKeep(op, t, k))
            }
            (_, Instr::JumpIfTrueKeep(t)) => {
                KOp::of(a).map(|(op, k)| Instr::KJumpIfTrueKeep(op, t, k))
            }
            (_, Instr::JumpIfFalsePop(t)) => match a {
                Instr::Sym(s) if state(s) => Some(Instr::SymJumpIfFalsePop(s, t)),
                Instr::List(l) => Some(Instr::ListJumpIfFalsePop(l, t)),
                Instr::Call(g) => Some(Instr::CallJumpIfFalsePop(g, t)),
                _ => KOp::of(a).map(|(op, k)| Instr::KJumpIfFalsePop(op, t, k)),
            },
            (Instr::Sym(s), _) if state(s) => sym_operand(b).map(|op| Instr::OpSym(op, s)),
            (Instr::Const(v), Instr::Jump(t)) => Some(Instr::ConstJump(t, v)),
            (Instr::Const(v), Instr::Ret) => Some(Instr::ConstRet(v)),
            _ => None,
        };
        if let Some(f) = fused {
            code[i] = f;
        }
    }
}

/// The binary operators that take a state symbol as their right operand in one instruction
/// (division warns on a zero divisor at its own position, so it stays apart).
fn sym_operand(i: Instr) -> Option<KOp> {
    Some(match i {
        Instr::Add => KOp::Add,
        Instr::Sub => KOp::Sub,
        Instr::Mul => KOp::Mul,
        Instr::Lt => KOp::Lt,
        Instr::Le => KOp::Le,
        Instr::Gt => KOp::Gt,
        Instr::Ge => KOp::Ge,
        Instr::Eq => KOp::Eq,
        Instr::Ne => KOp::Ne,
        Instr::BitAnd => KOp::BitAnd,
        _ => return None,
    })
}
