using System.IO;
using Xunit;

namespace CoarseTimers.AnalyzerHost.Tests;

/// <summary>What a project folder's files say about how it compiles: here, whether the SDK's implicit usings are on.</summary>
public sealed class SourceProjectTests : TemporaryFolderTest
{
    public SourceProjectTests()
        : base("sourceproject")
    {
    }

    [Fact]
    public void Implicit_usings_turned_on_in_a_file_the_project_imports_through_another_count()
    {
        // SlimMessageBus' layout: the project imports ../Host.Plugin.Properties.xml, which imports Common.Properties.xml.
        File.WriteAllText(Path.Combine(Root, "Common.Properties.xml"), "<Project><PropertyGroup><ImplicitUsings>enable</ImplicitUsings></PropertyGroup></Project>");
        File.WriteAllText(Path.Combine(Root, "Host.Plugin.Properties.xml"), "<Project><Import Project=\"Common.Properties.xml\" /></Project>");
        var folder = Directory.CreateDirectory(Path.Combine(Root, "Host.Transport")).FullName;
        File.WriteAllText(Path.Combine(folder, "Host.Transport.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\"><Import Project=\"..\\Host.Plugin.Properties.xml\" /></Project>");

        Assert.True(SourceProject.FromFolder(folder, Root).ImplicitUsings);
    }

    [Fact]
    public void A_project_that_imports_nothing_that_turns_them_on_has_none()
    {
        File.WriteAllText(Path.Combine(Root, "Common.Properties.xml"), "<Project><PropertyGroup><Nullable>enable</Nullable></PropertyGroup></Project>");
        var folder = Directory.CreateDirectory(Path.Combine(Root, "Lib")).FullName;
        File.WriteAllText(Path.Combine(folder, "Lib.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\"><Import Project=\"../Common.Properties.xml\" /><Import Project=\"$(MSBuildThisFileDirectory)Missing.props\" /></Project>");

        Assert.False(SourceProject.FromFolder(folder, Root).ImplicitUsings);
    }
}
