//! `outside-app total ITEM...`: prints a basket's total through the typed API (the
//! knowledge base is compiled in: the binary runs from any directory).
//! `outside-app serve ADDR`: serves the app.

use outside_app::{Shop, app};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shop = Shop::load()?;
    match args.first().map(String::as_str) {
        Some("total") => {
            let total = shop.basket_total(&args[1..]).await?;
            println!("{total}");
        }
        Some("serve") => {
            let addr = args.get(1).map_or("127.0.0.1:3000", String::as_str);
            let listener = tokio::net::TcpListener::bind(addr).await?;
            axum::serve(listener, app(&shop)).await?;
        }
        _ => return Err("usage: outside-app total ITEM... | outside-app serve ADDR".into()),
    }
    Ok(())
}
