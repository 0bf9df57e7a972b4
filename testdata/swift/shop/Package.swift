// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "Shop",
    targets: [
        .target(name: "ShopCore"),
        .executableTarget(name: "ShopApp", dependencies: ["ShopCore"]),
        .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore"]),
    ]
)
