//! `outside-app total ITEM...`: prints a basket's total through the typed API (the
//! knowledge base is compiled in: the binary runs from any directory).
//! `outside-app factorial N` and `outside-app offers`: the operations that answer
//! from the other files of the knowledge base.
//! `outside-app serve ADDR`: serves the app.

use outside_app::{Shop, app};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Charon logs through `tracing`; warnings go to stderr.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shop = Shop::load()?;
    match args.first().map(String::as_str) {
        Some("total") => {
            let total = shop.basket_total(&args[1..]).await?;
            println!("{total}");
        }
        Some("factorial") => {
            let n: i64 = args.get(1).ok_or("factorial N")?.parse()?;
            println!("{}", shop.factorial(n).await?);
        }
        Some("offers") => {
            let offers: Vec<String> = shop
                .offer()
                .await?
                .into_iter()
                .map(|o| format!("{} {}%", o.item, o.percent))
                .collect();
            println!("{}", offers.join(", "));
        }
        Some("serve") => {
            let addr = args.get(1).map_or("127.0.0.1:3000", String::as_str);
            let listener = tokio::net::TcpListener::bind(addr).await?;
            axum::serve(listener, app(&shop)).await?;
        }
        _ => {
            return Err(
                "usage: outside-app total ITEM... | factorial N | offers | serve ADDR".into(),
            );
        }
    }
    Ok(())
}
