//! How long a scan takes, decoding included, on the thread it runs on (pin it to one core
//! with `taskset -c 1`): every committed photo scanned `--passes` times (best pass kept),
//! then p50, p90, p99 and the worst per photo size; and, with `--make-12mp FILE`, a 12
//! megapixel phone-like JPEG made from a committed photo (tilted, shadowed, grainy), written to
//! FILE and timed the same way, its reading checked against the photo's givens.
//!
//! Usage: `cargo run --release -p sudoku-scan --example scan_timing -- [--passes N]
//! [--make-12mp FILE]`. The peak memory of a 12 MP scan is best read from a process of its
//! own: `/usr/bin/time -v sudoku-service scan FILE`.

#[path = "common/dataset.rs"]
mod dataset;
#[path = "common/phone.rs"]
mod phone;

use std::collections::BTreeMap;
use std::time::Instant;

use sudoku_scan::{Limits, Scanner};

fn main() {
    let mut passes = 3;
    let mut make_12mp = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--passes" => passes = args.next().and_then(|n| n.parse().ok()).unwrap_or(3),
            "--make-12mp" => make_12mp = args.next(),
            other => panic!("unknown argument {other:?}"),
        }
    }
    let scanner = Scanner::new();
    let root = dataset::root();
    // Best of the passes per photo, grouped by the photo's size in pixels.
    let mut by_size: BTreeMap<(u32, u32), Vec<f64>> = BTreeMap::new();
    for split in ["v2_train", "v2_test", "v2_mixed_train", "v2_mixed_test"] {
        for photo in dataset::split(&root, split) {
            let bytes = std::fs::read(&photo.path).unwrap();
            let size = image::image_dimensions(&photo.path).unwrap();
            by_size
                .entry(size)
                .or_default()
                .push(best_of(passes, &scanner, &bytes));
        }
    }
    println!("| photo size | photos | p50 | p90 | p99 | worst |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut all = Vec::new();
    for ((width, height), millis) in &mut by_size {
        print_row(&format!("{width}x{height}"), millis);
        all.extend_from_slice(millis);
    }
    print_row("all", &mut all);

    if let Some(path) = make_12mp {
        let (photo, givens) = phone::phone_photo(&root);
        std::fs::write(&path, &photo).unwrap();
        let mut millis: Vec<f64> = (0..passes).map(|_| best_of(1, &scanner, &photo)).collect();
        let read = scanner.scan(&photo, &Limits::default()).unwrap();
        println!(
            "\n12 MP JPEG ({} x {}, {} bytes, written to {path}): givens read {}",
            phone::PHONE_SIZE.0,
            phone::PHONE_SIZE.1,
            photo.len(),
            if read.givens_line() == givens {
                "right"
            } else {
                "WRONG"
            }
        );
        print_row("4032x3024", &mut millis);
    }
}

/// The fastest of `passes` scans of `bytes`, in milliseconds, decoding included.
fn best_of(passes: usize, scanner: &Scanner, bytes: &[u8]) -> f64 {
    (0..passes.max(1))
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(scanner.scan(bytes, &Limits::default()));
            start.elapsed().as_secs_f64() * 1000.0
        })
        .fold(f64::INFINITY, f64::min)
}

fn print_row(label: &str, millis: &mut [f64]) {
    millis.sort_by(f64::total_cmp);
    let at = |share: f64| millis[((millis.len() - 1) as f64 * share).round() as usize];
    println!(
        "| {label} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms |",
        millis.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        millis[millis.len() - 1]
    );
}
