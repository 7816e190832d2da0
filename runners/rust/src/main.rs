use std::process::ExitCode;

#[global_allocator]
static ALLOC: serbench_runner::alloc::Counting = serbench_runner::alloc::Counting;

fn main() -> ExitCode {
    match std::env::args().nth(1).as_deref() {
        Some("describe") => {
            println!("{}", serbench_runner::serve::describe());
            ExitCode::SUCCESS
        }
        Some("serve") => match serbench_runner::serve::serve() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("serve: {e}");
                ExitCode::FAILURE
            }
        },
        Some("transport") => ExitCode::from(serbench_runner::transport::transport() as u8),
        _ => {
            eprintln!("usage: serbench-runner describe | serve | transport");
            ExitCode::from(2)
        }
    }
}
