//! The counting global allocator: every allocation in the process (the serializers'
//! own, the harness's, Rust's standard library's) goes through it.
//!
//! - `bytes`: bytes requested by `alloc`, plus the growth of every `realloc` that grows;
//! - `count`: calls to `alloc` and `realloc`;
//! - `peak`: the highest live heap (bytes requested and not yet freed) since the last
//!   `reset_peak`, tracked only while `track_peak(true)`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::Relaxed};

pub struct Counting;

static BYTES: AtomicU64 = AtomicU64::new(0);
static COUNT: AtomicU64 = AtomicU64::new(0);
static LIVE: AtomicI64 = AtomicI64::new(0);
static PEAK: AtomicI64 = AtomicI64::new(0);
static TRACK: AtomicBool = AtomicBool::new(false);

#[inline]
fn grow(n: usize) {
    let live = LIVE.fetch_add(n as i64, Relaxed) + n as i64;
    if TRACK.load(Relaxed) {
        PEAK.fetch_max(live, Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        COUNT.fetch_add(1, Relaxed);
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        COUNT.fetch_add(1, Relaxed);
        grow(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as i64, Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        COUNT.fetch_add(1, Relaxed);
        if new_size > layout.size() {
            BYTES.fetch_add((new_size - layout.size()) as u64, Relaxed);
            grow(new_size - layout.size());
        } else {
            LIVE.fetch_sub((layout.size() - new_size) as i64, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// (bytes, count) allocated so far.
#[inline]
pub fn counters() -> (u64, u64) {
    (BYTES.load(Relaxed), COUNT.load(Relaxed))
}

/// Starts peak tracking from the current live heap; returns that baseline.
pub fn start_peak() -> i64 {
    let live = LIVE.load(Relaxed);
    PEAK.store(live, Relaxed);
    TRACK.store(true, Relaxed);
    live
}

/// Stops peak tracking and returns the peak live heap since `start_peak`.
pub fn stop_peak() -> i64 {
    TRACK.store(false, Relaxed);
    PEAK.load(Relaxed)
}
