//! The value's size (issue 14, speed): every operand, slot and list item moves a `Value`, so it
//! stays two words; a host object is a thin pointer (`Rc<Box<dyn HostObject>>`) for that.

use alea_ezscript::Value;

#[test]
fn a_value_is_16_bytes() {
    assert_eq!(std::mem::size_of::<Value>(), 16);
    assert_eq!(std::mem::size_of::<Option<Value>>(), 16);
}
