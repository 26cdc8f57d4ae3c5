using System.IO;
using Xunit;

namespace CoarseTimers.AnalyzerHost.Tests;

/// <summary>What a project folder's files say about how it compiles: whether the SDK's implicit usings are on, and its global usings.</summary>
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

    [Fact]
    public void Using_items_of_the_directory_props_and_the_project_become_global_usings()
    {
        // TouchSocket's layout: src/Directory.Build.props declares <Using Include="System.Threading.Tasks" /> and others.
        var src = Directory.CreateDirectory(Path.Combine(Root, "src")).FullName;
        File.WriteAllText(Path.Combine(Root, "Directory.Build.props"), "<Project><ItemGroup><Using Include=\"Outer.Unused\" /></ItemGroup></Project>");
        File.WriteAllText(Path.Combine(src, "Directory.Build.props"), "<Project><ItemGroup><Using Include=\"System.Threading.Tasks\" /><Using Include=\"System.Math\" Static=\"true\" /><Using Include=\"System.IO\" /></ItemGroup></Project>");
        var folder = Directory.CreateDirectory(Path.Combine(src, "Lib")).FullName;
        File.WriteAllText(Path.Combine(folder, "Lib.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><Using Remove=\"System.IO\" /><Using Include=\"System.Threading.Timer\" Alias=\"ThreadingTimer\" /></ItemGroup></Project>");

        Assert.Equal(
            new[] { "global using global::System.Threading.Tasks;", "global using static global::System.Math;", "global using ThreadingTimer = global::System.Threading.Timer;" },
            SourceProject.FromFolder(folder, Root).GlobalUsings);
    }

    [Fact]
    public void Using_items_of_a_directory_props_above_the_nearest_count_only_when_the_nearest_imports_it()
    {
        File.WriteAllText(Path.Combine(Root, "Directory.Build.props"), "<Project><ItemGroup><Using Include=\"Outer\" /></ItemGroup></Project>");
        var src = Directory.CreateDirectory(Path.Combine(Root, "src")).FullName;
        File.WriteAllText(Path.Combine(src, "Directory.Build.props"), "<Project><Import Project=\"$([MSBuild]::GetPathOfFileAbove('Directory.Build.props', '$(MSBuildThisFileDirectory)../'))\" /><ItemGroup><Using Include=\"Inner\" /></ItemGroup></Project>");
        var test = Directory.CreateDirectory(Path.Combine(Root, "test")).FullName;
        File.WriteAllText(Path.Combine(test, "Directory.Build.props"), "<Project><ItemGroup><Using Include=\"Tests\" /></ItemGroup></Project>");
        var lib = Directory.CreateDirectory(Path.Combine(src, "Lib")).FullName;
        File.WriteAllText(Path.Combine(lib, "Lib.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />");
        var tests = Directory.CreateDirectory(Path.Combine(test, "Lib.Tests")).FullName;
        File.WriteAllText(Path.Combine(tests, "Lib.Tests.csproj"), "<Project Sdk=\"Microsoft.NET.Sdk\" />");

        Assert.Equal(new[] { "global using global::Outer;", "global using global::Inner;" }, SourceProject.FromFolder(lib, Root).GlobalUsings);
        Assert.Equal(new[] { "global using global::Tests;" }, SourceProject.FromFolder(tests, Root).GlobalUsings);
    }
}
